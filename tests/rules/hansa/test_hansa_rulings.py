"""Rulings Q1-Q10 (docs/rulings.md), each shown on the engine."""

from __future__ import annotations

import json

import pytest

from rules.engine import IllegalMove
from rules.hansa import flow, scoring
from rules.hansa.state import KEEP, STORE

from .helpers import (
    cards_where,
    city,
    data,
    engine,
    give_face_down,
    give_face_up,
    set_hand,
    set_pieces,
    set_row,
    start_game,
    track_index,
)

LON = cards_where(city="London")
BRU = cards_where(city="Bruges")
BER = cards_where(city="Bergen")
NOV = cards_where(city="Novgorod")


def _clear_kontors(state):
    for seat in range(state.players):
        state.face_up[seat] = []
        state.face_down[seat] = []
        set_pieces(state, seat, {})


# -- Q1 / Q2 ---------------------------------------------------------------------------------
def test_q1_tied_first_in_a_city_then_third_in_a_round_scoring():
    state = start_game(4)
    _clear_kontors(state)
    give_face_up(state, 0, LON[8:9])  # lon-09, power 4
    give_face_up(state, 1, LON[14:15])  # lon-15, power 4
    give_face_up(state, 2, LON[2:3])  # lon-03, power 2
    give_face_up(state, 3, LON[0:1])  # lon-01, power 1
    state.prosperity[city("London")] = track_index(25)  # 1st 25, 2nd x3, 3rd x2
    events: list[dict] = []
    flow.score_round(state, data(), events)
    london = [seat["cities"]["London"] for seat in events[-1]["profits"]]
    # two tied 1st, the next is 3rd (2 x 2), the last is 4th and earns nothing
    assert london == [25, 25, 4, 0]


def test_q2_zero_total_takes_no_rank():
    space = data().track[track_index(25)]
    assert scoring.city_profits(space, [5, 0, 0, 0]) == [25, 0, 0, 0]
    assert scoring.competition_ranks([5, 0, 0]) == [1, None, None]


def test_q2_zero_parliament_power_and_no_ship_earn_nothing():
    state = start_game(3)
    _clear_kontors(state)
    give_face_down(state, 0, NOV[8:9])  # power 4
    give_face_up(state, 1, [BRU[4]])  # a ship, face up
    events: list[dict] = []
    flow.final_scoring(state, data(), events)
    assert [entry["parliament"] for entry in state.breakdown][1:] == [0, 0]
    assert state.breakdown[0]["parliament"] > 0
    assert [entry["golden_ship"] for entry in state.breakdown] == [0, 20, 0]


# -- Q3 ----------------------------------------------------------------------------------------
def test_q3_parliament_cannot_push_a_marker_off_the_track():
    eng = engine()
    state = start_game(4)
    seat = eng.to_act(state)[0]
    set_hand(state, seat, [LON[0], LON[1]])
    state.prosperity[city("Bergen")] = 0
    state.prosperity[city("Bruges")] = len(data().track) - 1
    take = state.rows[0][0]
    before = eng.to_json(state)
    for city_name, direction in (("Bergen", -1), ("Bruges", 1)):
        move = {"type": "parliament", "card": LON[0], "city": city_name,
                "direction": direction, "take": take}
        with pytest.raises(IllegalMove) as error:
            eng.apply(state, seat, move)
        assert error.value.code == "prosperity_cannot_move"
        assert move not in eng.legal_moves(state, seat)
    assert eng.to_json(state) == before
    moved, _ = eng.apply(state, seat, {"type": "parliament", "card": LON[0], "city": "Bergen",
                                       "direction": 1, "take": take})
    assert moved.prosperity[city("Bergen")] == 1


def test_q3_a_harbour_change_stops_at_the_track_end():
    eng = engine()
    state = start_game(4)
    seat = eng.to_act(state)[0]
    set_hand(state, seat, [LON[0], LON[1]])
    set_row(state, "London", [BRU[0], BRU[1], BRU[2]])
    state.prosperity[city("London")] = 0
    state.changes = 0  # the 1st change of the round is -1
    new, events = eng.apply(state, seat, {"type": "trade", "card": LON[0], "take": BRU[0]})
    assert new.prosperity[city("London")] == 0
    change = [e for e in events if e["type"] == "prosperity_changed"][0]
    assert change["order"] == 1 and change["from"] == change["to"]


# -- Q4 / Q9 ------------------------------------------------------------------------------------
def test_q4_q9_changes_happen_when_the_sea_empties_in_round_order():
    eng = engine()
    state = start_game(4)
    first = eng.to_act(state)[0]
    set_hand(state, first, [LON[0], LON[1]])
    set_row(state, "London", [BRU[0], BRU[1], BRU[2]])  # one card in the sea
    set_row(state, "Bergen", [NOV[0], NOV[1], NOV[2], NOV[4]])  # two in the sea
    start = list(state.prosperity)

    state, events = eng.apply(state, first, {"type": "trade", "card": LON[0], "take": BRU[1]})
    # the last sea card slid into the harbour: 1st change, -1
    assert state.rows[city("London")] == [BRU[0], BRU[2]]
    assert state.prosperity[city("London")] == start[city("London")] - 1
    assert state.changes == 1

    second = eng.to_act(state)[0]
    set_hand(state, second, [BER[0], BER[1]])
    state, events = eng.apply(state, second, {"type": "trade", "card": BER[0], "take": NOV[0]})
    # Bergen's sea still holds a card: no change yet
    assert not [e for e in events if e["type"] == "prosperity_changed"]
    assert state.prosperity[city("Bergen")] == start[city("Bergen")]

    third = eng.to_act(state)[0]
    set_hand(state, third, [BER[2], BER[3]])
    state, events = eng.apply(state, third, {"type": "trade", "card": BER[2], "take": NOV[1]})
    # now Bergen's sea empties: the 2nd change of the round, +1
    change = [e for e in events if e["type"] == "prosperity_changed"][0]
    assert change["city"] == "Bergen" and change["order"] == 2
    assert state.prosperity[city("Bergen")] == start[city("Bergen")] + 1

    # taking from a harbour-only row never changes prosperity again this round (Q9)
    fourth = eng.to_act(state)[0]
    set_hand(state, fourth, [LON[2], LON[3]])
    state, events = eng.apply(state, fourth, {"type": "trade", "card": LON[2], "take": BRU[0]})
    assert not [e for e in events if e["type"] == "prosperity_changed"]
    assert state.changes == 2


def test_q4_change_count_restarts_each_round():
    state = start_game(4)
    state.changes = 3
    flow.choose_start(state, data(), 1, [])
    assert state.changes == 0 and state.round == 2 and state.current == 1


# -- Q5 -----------------------------------------------------------------------------------------
def _trade_state():
    eng = engine()
    state = start_game(4)
    seat = eng.to_act(state)[0]
    set_hand(state, seat, [LON[0], BRU[0]])
    set_row(state, "London", [BER[0], BER[1], BER[2]])
    set_row(state, "Bruges", [NOV[0], NOV[1]])
    return eng, state, seat


def test_q5_trade_takes_from_the_played_colours_harbour():
    eng, state, seat = _trade_state()
    trades = {m["take"] for m in eng.legal_moves(state, seat)
              if m["type"] == "trade" and m["card"] == LON[0]}
    assert trades == {BER[0], BER[1]}
    for take, code in ((NOV[0], "wrong_harbour"), (BER[2], "card_not_in_harbour"),
                       (None, "take_required")):
        with pytest.raises(IllegalMove) as error:
            eng.apply(state, seat, {"type": "trade", "card": LON[0], "take": take})
        assert error.value.code == code
    with pytest.raises(IllegalMove) as error:
        eng.apply(state, seat, {"type": "trade", "card": LON[0]})
    assert error.value.code == "take_required"


def test_q5_empty_city_lets_trade_take_from_any_harbour():
    eng, state, seat = _trade_state()
    set_row(state, "London", [])
    trades = {m["take"] for m in eng.legal_moves(state, seat)
              if m["type"] == "trade" and m["card"] == LON[0]}
    harbours = {cid for row in state.rows for cid in row[:2]}
    assert trades == harbours and NOV[0] in trades
    new, _ = eng.apply(state, seat, {"type": "trade", "card": LON[0], "take": NOV[0]})
    assert NOV[0] in new.hands[seat]


def test_q5_no_card_anywhere_means_no_card_taken():
    eng, state, seat = _trade_state()
    for city_name in data().cities:
        set_row(state, city_name, [])
    assert {m["take"] for m in eng.legal_moves(state, seat)} == {None}
    with pytest.raises(IllegalMove) as error:
        eng.apply(state, seat, {"type": "trade", "card": LON[0], "take": NOV[0]})
    assert error.value.code == "card_not_in_harbour"
    new, _ = eng.apply(state, seat, {"type": "trade", "card": LON[0]})
    assert new.hands[seat] == [BRU[0]]


# -- Q6 -----------------------------------------------------------------------------------------
def test_q6_keep_is_simultaneous_secret_and_final():
    eng = engine()
    state = eng.setup(4, {}, "q6")
    assert state.phase == KEEP and eng.to_act(state) == [0, 1, 2, 3]
    options = eng.legal_moves(state, 2)
    assert len(options) == 6  # 2 of 4
    first, _ = eng.apply(state, 2, options[0])
    other, _ = eng.apply(state, 2, options[-1])
    assert eng.to_act(first) == [0, 1, 3]
    # nobody else can tell which pair seat 2 kept
    for viewer in (0, 1, 3, None):
        assert eng.view(first, viewer) == eng.view(other, viewer)
    assert eng.view(first, 2)["my_choice"] == options[0]
    with pytest.raises(IllegalMove) as error:
        eng.apply(first, 2, options[1])
    assert error.value.code == "already_chosen"
    # any order; when the last seat chooses, the hands shrink and the deck is reshuffled
    state = first
    deck_before = len(state.normal_deck)
    for seat in (3, 0, 1):
        state, events = eng.apply(state, seat, eng.legal_moves(state, seat)[0])
        others = [viewer for viewer in (0, 1, 2, 3, None) if viewer != seat]
        assert all('"cards"' not in json.dumps(eng.redact_event(event, viewer))
                   for event in events for viewer in others)
    assert state.phase == "turns"
    assert [len(hand) for hand in state.hands] == [2, 2, 2, 2]
    assert sorted(state.hands[2]) == sorted(options[0]["cards"])
    assert len(state.normal_deck) == deck_before + 8


def test_q6_final_card_is_secret_until_all_have_chosen():
    eng = engine()
    state = start_game(3)
    state.round = data().rounds
    state.phase = "final_card"
    state.pending = {}
    assert eng.to_act(state) == [0, 1, 2]
    moves = eng.legal_moves(state, 1)
    assert {m["face"] for m in moves} == {"up", "down"} and len(moves) == 4
    up, events_up = eng.apply(state, 1, moves[0])
    down, events_down = eng.apply(state, 1, moves[-1])
    assert eng.view(up, 0) == eng.view(down, 0)
    # the chooser's own event names its choice; every other reader sees the same stand-in
    for viewer in (0, 2, None):
        assert json.dumps([eng.redact_event(e, viewer) for e in events_up]) == json.dumps(
            [eng.redact_event(e, viewer) for e in events_down])
    assert events_up[0]["move"] == moves[0]
    state = up
    for seat in (2, 0):
        state, events = eng.apply(state, seat, eng.legal_moves(state, seat)[1])
    assert eng.is_over(state)
    assert all(not hand for hand in state.hands) and len(state.removed) == 3
    assert moves[0]["card"] in state.face_up[1]


# -- Q7 -----------------------------------------------------------------------------------------
def test_q7_parliament_uses_sorted_prosperity_and_tied_cities_pay_alike():
    d = data()
    prosperity = [track_index(25), track_index(25), track_index(16), track_index(5)]
    assert scoring.parliament_profits(d, [9, 6, 4, 1], prosperity) == [25, 25, 16, 5]
    # tied players share a rank and skip the next
    assert scoring.parliament_profits(d, [6, 6, 4, 0], prosperity) == [25, 25, 16, 0]
    prosperity = [track_index(42), track_index(12), track_index(30), track_index(5)]
    assert scoring.parliament_profits(d, [1, 7, 3, 5], prosperity) == [5, 42, 12, 30]


# -- Q8 -----------------------------------------------------------------------------------------
def test_q8_stored_pieces_count_in_city_totals():
    state = start_game(2)
    _clear_kontors(state)
    give_face_up(state, 0, [BER[6]])  # Bergen power 2
    give_face_up(state, 1, [BER[0]])  # Bergen power 1
    set_pieces(state, 1, {"yellow": 2}, stored={"yellow": 2})  # stored last round
    events: list[dict] = []
    flow.score_round(state, data(), events)
    profits = events[-1]["profits"]
    first = data().track[state.prosperity[city("Bergen")]].first
    assert profits[1]["cities"]["Bergen"] == first  # 1 + 2 pieces beats 2
    assert profits[1]["luxury"] == 2


# -- Q10 ----------------------------------------------------------------------------------------
def _storage_state():
    state = start_game(4)
    _clear_kontors(state)
    ships = cards_where(kind="ship")
    give_face_up(state, 0, ships[:2])
    give_face_down(state, 0, ships[2:3])  # face-down ships do not allow storage
    set_pieces(state, 0, {"red": 1, "blue": 1, "yellow": 1}, stored={"red": 1})
    give_face_up(state, 1, ships[3:4])
    set_pieces(state, 1, {"black": 3})  # one colour, yet keeping 0 or 1 is still a choice
    set_pieces(state, 2, {"red": 2})  # no face-up ship: nothing can be kept, settled at once
    give_face_up(state, 3, ships[5:6])  # a ship but no piece: nothing to keep, settled
    flow.start_storage(state, data(), [])
    return state


def test_q10_storage_counts_earlier_stored_pieces():
    eng = engine()
    state = _storage_state()
    assert state.phase == STORE and eng.to_act(state) == [0, 1]
    for pieces, code in (({"red": 1, "blue": 1, "yellow": 1}, "too_many_pieces"),
                         ({"blue": 2}, "not_enough_pieces"),
                         ({"green": 1, "red": 1}, "unknown_colour")):
        with pytest.raises(IllegalMove) as error:
            eng.apply(state, 0, {"type": "store", "pieces": pieces})
        assert error.value.code == code
    # the earlier stored red piece may be given up for two new ones
    new, _ = eng.apply(state, 0, {"type": "store", "pieces": {"blue": 1, "yellow": 1}})
    new, events = eng.apply(new, 1, {"type": "store", "pieces": {"black": 1}})
    assert new.pieces[0] == [0, 1, 1, 0] and new.stored[0] == [0, 1, 1, 0]
    assert new.pieces[1] == [0, 0, 0, 1]  # one face-up ship keeps one black piece
    assert new.pieces[2] == [0, 0, 0, 0]
    stored = {e["seat"]: e["pieces"] for e in events if e["type"] == "pieces_stored"}
    assert stored[0] == {"red": 0, "blue": 1, "yellow": 1, "black": 0}


def test_q10_storage_may_keep_fewer_than_the_ships_allow():
    # ruling Q10: a player keeps "at most" as many pieces as face-up ships, so any subset
    # within that number is a legal storage, including keeping nothing
    eng = engine()
    state = _storage_state()
    options = eng.legal_moves(state, 0)
    kept = sorted(tuple(m["pieces"][c] for c in data().colours) for m in options)
    # every subset of {red, blue, yellow} with at most 2 pieces: 1 + 3 + 3
    expected = sorted(
        (r, b, y, 0) for r in (0, 1) for b in (0, 1) for y in (0, 1) if r + b + y <= 2
    )
    assert kept == expected
    assert sorted(m["pieces"]["black"] for m in eng.legal_moves(state, 1)) == [0, 1]
    new, _ = eng.apply(state, 0, {"type": "store", "pieces": {"red": 1}})
    new, _ = eng.apply(new, 1, {"type": "store", "pieces": {}})
    assert new.pieces[0] == [1, 0, 0, 0] and new.pieces[1] == [0, 0, 0, 0]


def test_q10_storage_is_settled_only_when_there_is_one_choice():
    eng = engine()
    state = _storage_state()
    for seat in (2, 3):  # no face-up ship / no piece: keeping nothing is the only choice
        assert seat not in eng.to_act(state) and eng.legal_moves(state, seat) == []
        with pytest.raises(IllegalMove) as error:
            eng.apply(state, seat, {"type": "store", "pieces": {}})
        assert error.value.code == "already_chosen"


def test_storage_choice_is_hidden_until_all_have_stored():
    eng = engine()
    state = _storage_state()
    give_face_up(state, 2, cards_where(kind="ship")[4:5])
    set_pieces(state, 2, {"red": 1, "black": 1})
    flow.start_storage(state, data(), [])
    assert eng.to_act(state) == [0, 1, 2]
    a, _ = eng.apply(state, 2, {"type": "store", "pieces": {"red": 1}})
    b, _ = eng.apply(state, 2, {"type": "store", "pieces": {"black": 1}})
    for viewer in (0, 1, 3, None):
        assert eng.view(a, viewer) == eng.view(b, viewer)
    assert eng.view(a, 2)["my_choice"] == {
        "type": "store", "pieces": {"red": 1, "blue": 0, "yellow": 0, "black": 0}
    }



def test_q6_decision_age_counts_the_choices_made_since_the_phase_began():
    """The service accepts an expected_ply from the phase's start: other seats' secret
    choices do not change a seat's own decision (regression: a UI showing "keep 2" to
    every seat got stale_ply for the second chooser)."""
    eng = engine()
    state = eng.setup(3, {}, "q6-age")  # the keep phase, nobody has chosen
    assert [eng.decision_age(state, seat) for seat in range(3)] == [0, 0, 0]
    state, _ = eng.apply(state, 1, eng.legal_moves(state, 1)[0])
    assert eng.decision_age(state, 0) == 1 and eng.decision_age(state, 2) == 1
    assert eng.decision_age(state, 1) == 0  # already chosen: owes nothing
    state, _ = eng.apply(state, 0, eng.legal_moves(state, 0)[0])
    assert eng.decision_age(state, 2) == 2
    state, _ = eng.apply(state, 2, eng.legal_moves(state, 2)[0])
    assert state.phase == "turns"
    assert eng.decision_age(state, eng.to_act(state)[0]) == 0  # turns: the current ply only
