"""The rulebook's worked examples and the scoring tables, with the shipped data.

The city examples are checked at the prosperity space whose values reproduce them in
tables.json (London at "25", Bruges at the start space "5", Bergen at "16"), once with
the bare arithmetic and once through a real round scoring of a game state.
"""

from __future__ import annotations

import pytest

from rules.hansa import flow, scoring
from rules.hansa.state import HansaState

from .helpers import (
    cards_where,
    city,
    data,
    give_face_down,
    give_face_up,
    lift,
    set_pieces,
    start_game,
    track_index,
)

# (city, prosperity label, totals of Ann, Bob, Charlie, Dona, expected profits)
CITY_EXAMPLES = [
    ("London", 25, [8, 7, 6, 3], [25, 21, 12, 0]),
    ("Bruges", 5, [3, 9, 6, 4], [0, 5, 6, 0]),
    ("Bergen", 16, [7, 4, 3, 7], [16, 4, 0, 16]),
]


@pytest.mark.parametrize(("city_name", "label", "totals", "expected"), CITY_EXAMPLES)
def test_city_scoring_examples_arithmetic(city_name, label, totals, expected):
    space = data().track[track_index(label)]
    assert scoring.city_profits(space, totals) == expected


def _give_city_total(state: HansaState, seat: int, city_name: str, total: int) -> None:
    """``total`` face-up 1-power cards of the city."""
    ones = [cid for cid in cards_where(city=city_name, trade_power=1)
            if all(cid not in kontor for kontor in state.face_up)]
    give_face_up(state, seat, ones[:total])


@pytest.mark.parametrize(("city_name", "label", "totals", "expected"), CITY_EXAMPLES)
def test_city_scoring_examples_in_a_round(city_name, label, totals, expected):
    state = start_game(4)
    for seat in range(4):
        state.face_up[seat] = []
        set_pieces(state, seat, {})
    # one face-up 1-power card each (a city has only six of them); luxury pieces of the
    # city's colour make up the rest of each total (ruling Q8: a piece counts one)
    colour_name = data().colours[city(city_name)]
    for seat, total in enumerate(totals):
        _give_city_total(state, seat, city_name, min(total, 1))
        set_pieces(state, seat, {colour_name: total - min(total, 1)})
    state.prosperity[city(city_name)] = track_index(label)
    events: list[dict] = []
    flow.score_round(state, data(), events)
    assert [seat["cities"][city_name] for seat in events[-1]["profits"]] == expected


@pytest.mark.parametrize(("colours", "profit"), [(0, 0), (1, 2), (2, 6), (3, 12), (4, 20)])
def test_luxury_table(colours, profit):
    pieces = [3] * colours + [0] * (4 - colours)
    assert scoring.luxury_profit(data(), pieces) == profit


def test_luxury_counts_colours_not_pieces():
    assert scoring.luxury_profit(data(), [5, 0, 0, 0]) == 2
    assert scoring.luxury_profit(data(), [1, 1, 0, 0]) == 6


def test_ann_notable_persons_example():
    # A 1, B 1, D 2, F 1, G 3, H 2: 6 types -> 42; D and H pairs 2 x 6 + G triple 20 -> 32
    types_profit, sets_profit, types = scoring.person_profits(data(), list("ABDDFGGGHH"))
    assert (types_profit, sets_profit, types) == (42, 32, 6)


def test_person_types_table_from_the_rulebook():
    expected = [2, 6, 12, 20, 30, 42, 56, 72]
    letters = "ABCDEFGH"
    for count, profit in enumerate(expected, start=1):
        assert scoring.person_profits(data(), list(letters[:count]))[0] == profit


def test_ann_persons_through_final_scoring():
    state = start_game(4)
    for seat in range(4):
        state.face_up[seat] = []
        state.face_down[seat] = []
    wanted = {"A": 1, "B": 1, "D": 2, "F": 1, "G": 3, "H": 2}
    for letter, count in wanted.items():
        give_face_up(state, 0, cards_where(person=letter)[:count])
    events: list[dict] = []
    flow.final_scoring(state, data(), events)
    assert state.breakdown[0]["persons"] == {"types": 42, "sets": 32, "type_count": 6}


def test_competition_ranks_two_tied_first_next_is_third():
    # ruling Q1
    assert scoring.competition_ranks([9, 9, 5, 1]) == [1, 1, 3, 4]
    assert scoring.competition_ranks([4, 7, 7, 7]) == [4, 1, 1, 1]
    assert scoring.competition_ranks([6, 3, 3, 1]) == [1, 2, 2, 4]


def test_tied_second_both_score_and_fourth_gets_nothing():
    space = data().track[track_index(25)]  # 1st 25, 2nd x3, 3rd x2
    assert scoring.city_profits(space, [9, 6, 6, 5]) == [25, 18, 18, 0]


def test_golden_ship_places_with_ties():
    assert scoring.golden_ship_profits(data(), [3, 3, 2, 1]) == [20, 20, 5, 0]
    assert scoring.golden_ship_profits(data(), [4, 2, 1, 0]) == [20, 10, 5, 0]


def test_golden_ship_counts_face_down_ships_after_parliament():
    state = start_game(2)
    for seat in range(2):
        state.face_up[seat] = []
        state.face_down[seat] = []
    ships = cards_where(kind="ship", min_players=2)
    give_face_up(state, 0, ships[:1])
    give_face_down(state, 1, ships[1:3])
    events: list[dict] = []
    flow.final_scoring(state, data(), events)
    assert [entry["golden_ship"] for entry in state.breakdown] == [10, 20]


def test_final_ranks_tie_break_by_person_types_then_shared():
    assert scoring.final_ranks([100, 100, 90], [5, 3, 8]) == [1, 2, 3]
    assert scoring.final_ranks([100, 100, 90, 100], [4, 4, 1, 2]) == [1, 1, 4, 3]


def test_persons_count_face_down_cards_but_not_the_removed_card():
    # rulebook, Final Scoring: after Parliament "leave all cards in your Kontor face up", so
    # persons count over the whole Kontor; the card left in hand was removed from the game
    state = start_game(4)
    for seat in range(4):
        state.face_up[seat] = []
        state.face_down[seat] = []
    d = data()
    a_cards, b_cards = cards_where(person="A"), cards_where(person="B")
    give_face_up(state, 0, a_cards[:1])
    give_face_down(state, 0, a_cards[1:2] + b_cards[:1])
    lift(state, b_cards[1])
    state.removed = b_cards[1:2]
    for seat in range(4):
        state.hands[seat] = []
    flow.final_scoring(state, d, [])
    # A twice (a pair) and B once: 2 types -> 6, one pair -> 6
    assert state.breakdown[0]["persons"] == {"types": 6, "sets": 6, "type_count": 2}
