"""Scoring arithmetic: competition ranks and the profit tables. Pure functions over numbers,
so the rulebook's worked examples can be checked without playing a game."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from rules.hansa.data import HansaData, TrackSpace


def competition_ranks(values: Sequence[int], zero_earns_nothing: bool = True) -> list[int | None]:
    """Rank 1 = highest. Tied values share a rank and the next rank is skipped by the number
    of extra tied players (ruling Q1). With ``zero_earns_nothing`` a value of 0 (or less)
    takes no rank at all (ruling Q2)."""
    ranks: list[int | None] = []
    for value in values:
        if zero_earns_nothing and value <= 0:
            ranks.append(None)
        else:
            ranks.append(1 + sum(1 for other in values if other > value))
    return ranks


def city_profits(space: TrackSpace, totals: Sequence[int]) -> list[int]:
    """Profit of each player in one city: 1st takes the fixed profit, 2nd and 3rd their
    total times the space's multiplier; 4th and below nothing (rulings Q1, Q2)."""
    profits = []
    for total, rank in zip(totals, competition_ranks(totals), strict=True):
        if rank == 1:
            profits.append(space.first)
        elif rank == 2:
            profits.append(total * space.second_multiplier)
        elif rank == 3:
            profits.append(total * space.third_multiplier)
        else:
            profits.append(0)
    return profits


def luxury_profit(data: HansaData, pieces: Sequence[int]) -> int:
    """Profit for the number of colours among a Kontor's luxury pieces."""
    return data.luxury_for_colours(sum(1 for count in pieces if count > 0))


def parliament_profits(
    data: HansaData, powers: Sequence[int], prosperity: Sequence[int]
) -> list[int]:
    """The k-th ranked face-down trade power earns the fixed profit of the city with the
    k-th highest prosperity (ruling Q7: prosperity values sorted high to low, ties in
    prosperity pay the same); 0 power earns nothing (ruling Q2)."""
    # sort the markers' positions, then read each space's profit: the k-th most prosperous
    # city pays, even on a track whose profits do not rise with every space
    fixed = [data.track[index].first for index in sorted(prosperity, reverse=True)]
    profits = []
    for rank in competition_ranks(powers):
        profits.append(fixed[rank - 1] if rank is not None and rank <= len(fixed) else 0)
    return profits


def golden_ship_profits(data: HansaData, ship_counts: Sequence[int]) -> list[int]:
    """20 / 10 / 5 for the most trade ships; no ship earns nothing (ruling Q2)."""
    table = data.golden_ship
    return [
        table[rank - 1] if rank is not None and rank <= len(table) else 0
        for rank in competition_ranks(ship_counts)
    ]


def person_profits(data: HansaData, letters: Sequence[str]) -> tuple[int, int, int]:
    """(profit for the number of types, profit for same-type sets, number of types)."""
    counts = Counter(letters)
    types = len(counts)
    types_profit = data.person_types_for(types) if types else 0
    sets_profit = sum(data.same_type_for(count) for count in counts.values() if count >= 2)
    return types_profit, sets_profit, types


def final_ranks(scores: Sequence[int], tie_break: Sequence[int]) -> list[int]:
    """Competition ranks by score, then by the number of notable-person types; players
    equal on both share the rank (and the victory when it is 1st)."""
    keys = list(zip(scores, tie_break, strict=True))
    return [1 + sum(1 for other in keys if other > key) for key in keys]
