"""Paying for pieces with province cards: the 3-2-1 rule, wild pairs, border spaces.

A piece needs one or two *units*; a unit is ``(allowed colour mask, wild pair allowed)``:

- a house on an ordinary space or an emissary in province P: one unit ``({P's colour}, yes)``;
- a house on a border space (ruling H3): two units, each of either bordering colour;
- a fortification (V1) or market place (V2): two units of the province's own colour, no wild.

A unit is paid by one card of an allowed colour, or (ruling H2) by a wild pair: two cards of
one colour d standing for one card of any *other* allowed colour. Every card played must pay
for something: a move's cards must be consumed exactly, so playing a spare card is refused.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

MAX_CARDS = 3  # ruling H1

Unit = tuple[int, bool]


@lru_cache(maxsize=65536)
def can_pay(cards: tuple[int, ...], units: tuple[Unit, ...]) -> bool:
    """True when the sorted colour indices ``cards`` pay exactly for ``units``."""
    if not units:
        return not cards
    if len(cards) < len(units) or len(cards) > 2 * len(units):
        return False
    (mask, wild_ok), rest = units[0], units[1:]
    tried: set[int] = set()
    for i, colour in enumerate(cards):
        if colour in tried:
            continue
        tried.add(colour)
        remaining = cards[:i] + cards[i + 1 :]
        if mask >> colour & 1 and can_pay(remaining, rest):
            return True
        if wild_ok and mask & ~(1 << colour):
            # a wild pair of this colour stands for one other colour of the unit
            j = remaining.index(colour) if colour in remaining else -1
            if j >= 0 and can_pay(remaining[:j] + remaining[j + 1 :], rest):
                return True
    return False


@lru_cache(maxsize=4096)
def card_subsets(hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct non-empty sub-multiset (sorted) of a sorted hand, at most 3 cards."""
    found = set()
    for size in range(1, min(MAX_CARDS, len(hand)) + 1):
        found.update(combinations(hand, size))
    return tuple(sorted(found, key=lambda c: (len(c), c)))


@lru_cache(maxsize=65536)
def payments(
    hand: tuple[int, ...], units: tuple[Unit, ...], colours: tuple[str, ...]
) -> tuple[tuple[str, ...], ...]:
    """The distinct card sets (as colour names) from ``hand`` that pay exactly for ``units``."""
    units = tuple(sorted(units))
    return tuple(
        tuple(colours[c] for c in subset) for subset in card_subsets(hand) if can_pay(subset, units)
    )
