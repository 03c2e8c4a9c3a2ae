"""view, redact_move and move_value: what each seat may see and what a move is worth."""

from __future__ import annotations

import json

import pytest

from rules.engine import IllegalMove
from rules.rng import SeededRng

from .helpers import (
    cards_where,
    city,
    engine,
    give_face_down,
    give_face_up,
    play_random,
    set_hand,
    set_pieces,
    set_row,
    start_game,
    track_index,
)


def test_view_shows_public_information_and_own_secrets_only():
    eng = engine()
    state = start_game(3, seed="view")
    lon = cards_where(city="London")
    lux = cards_where(city="Bergen", luxury=True)
    set_hand(state, 0, [lon[0], lon[1]])
    set_row(state, "London", [lux[0], lon[2], lon[3]], pieces={lux[0]: "blue"})
    state, _ = eng.apply(state, 0, {"type": "trade", "card": lon[0], "take": lux[0]})
    face_down_card = state.hands[1][0]
    state, _ = eng.apply(state, 1, {"type": "parliament", "card": face_down_card,
                                    "city": "Bergen", "direction": 1,
                                    "take": state.rows[city("Bruges")][0]})
    view = eng.view(state, 0)
    assert view["phase"] == "turns" and view["round"] == 1 and view["start_player"] == 0
    assert view["current_seat"] == 2 and view["to_act"] == [2] and view["turns_taken"] == 2
    assert view["prosperity"]["Bergen"]["index"] == state.prosperity[city("Bergen")]
    assert view["prosperity_changes_this_round"] == 1  # London's sea emptied
    assert view["rows"]["London"][0]["card"]["id"] == lon[2]
    me, seat1 = view["seats"][0], view["seats"][1]
    assert [c["id"] for c in me["face_up"]] == [lon[0]]
    assert me["pieces"]["blue"] == 1 and me["stored"]["blue"] == 0
    assert sorted(c["id"] for c in me["hand"]) == sorted(state.hands[0])
    assert seat1["face_down_count"] == 1 and seat1["hand_size"] == 2
    assert "hand" not in seat1 and "face_down" not in seat1
    text = json.dumps(view)
    assert f'"{face_down_card}"' not in text
    assert view["bag"]["count"] == sum(view["bag"]["by_colour"].values()) == sum(state.bag)
    assert view["decks"] == {"normal": len(state.normal_deck), "luxury": len(state.luxury_deck)}
    # seat 1 sees its own face-down card
    assert [c["id"] for c in eng.view(state, 1)["seats"][1]["face_down"]] == [face_down_card]


def test_spectator_sees_no_hand():
    eng = engine()
    state = start_game(4, seed="spectator")
    view = eng.view(state, None)
    assert all("hand" not in entry for entry in view["seats"])
    text = json.dumps(view)
    for hand in state.hands:
        for card_id in hand:
            assert f'"{card_id}"' not in text


def test_view_refuses_a_seat_that_is_not_there():
    with pytest.raises(IllegalMove) as error:
        engine().view(start_game(2), 5)
    assert error.value.code == "invalid_seat"


def test_everything_is_public_after_the_end():
    eng = engine()
    end, _ = play_random(eng, eng.setup(3, {}, "the-end"), SeededRng("end"))
    view = eng.view(end, None)
    assert view["over"] and view["result"] == eng.result(end)
    for seat, entry in enumerate(view["seats"]):
        assert [c["id"] for c in entry["face_down"]] == end.face_down[seat]
    assert sorted(c["id"] for c in view["removed"]) == sorted(end.removed)
    assert "the-end" not in json.dumps(view) and "counter" not in json.dumps(view)


def test_redact_move_hides_secret_parts_from_other_seats():
    eng = engine()
    keep = {"type": "keep", "cards": ["lon-03", "bru-07"]}
    parliament = {"type": "parliament", "card": "nov-01", "city": "Bergen", "direction": 1,
                  "take": "lon-05"}
    store = {"type": "store", "pieces": {"red": 1}}
    final_down = {"type": "final_card", "card": "bru-04", "face": "down"}
    trade = {"type": "trade", "card": "lon-03", "take": "ber-02"}
    assert eng.redact_move(keep, 0, 1) == {"type": "keep"}
    assert eng.redact_move(keep, 0, None) == {"type": "keep"}
    assert eng.redact_move(parliament, 0, 1) == {
        "type": "parliament", "city": "Bergen", "direction": 1, "take": "lon-05"}
    assert eng.redact_move(store, 2, 0) == {"type": "store"}
    assert eng.redact_move(final_down, 2, 0) == {"type": "final_card"}
    assert eng.redact_move(trade, 0, 1) == trade
    for move in (keep, parliament, store, final_down, trade):
        assert eng.redact_move(move, 1, 1) == move


def test_move_value_prefers_the_trade_that_wins_a_prosperous_city():
    eng = engine()
    state = start_game(4, seed="value")
    for seat in range(4):
        state.face_up[seat] = []
        set_pieces(state, seat, {})
    lon, nov = cards_where(city="London"), cards_where(city="Novgorod")
    give_face_up(state, 1, [lon[13]])  # London power 3 for seat 1
    set_hand(state, 0, [lon[8], nov[0]])  # a 4-power London card and a 1-power Novgorod card
    state.prosperity[city("London")] = track_index(25)
    view = json.loads(json.dumps(eng.view(state, 0)))
    values = {}
    for move in eng.legal_moves(state, 0):
        if move["type"] == "trade":
            values.setdefault(move["card"], []).append(eng.move_value(view, 0, move))
    assert min(values[lon[8]]) >= 25  # 1st in London at "25"
    assert max(values[nov[0]]) < min(values[lon[8]])
    best = max(eng.legal_moves(state, 0), key=lambda m: eng.move_value(view, 0, m))
    assert best["type"] == "trade" and best["card"] == lon[8]


def _london_row_with_a_luxury_piece(seed: str):
    """Two seats with empty Kontors; seat 0 holds two London cards, and London's row
    offers a Bruges luxury card carrying a yellow piece beside a plain London card."""
    state = start_game(2, seed=seed)
    for seat in range(2):
        state.face_up[seat] = []
        set_pieces(state, seat, {})
    lon, bru = cards_where(city="London"), cards_where(city="Bruges", luxury=True)
    set_hand(state, 0, [lon[0], lon[1]])
    set_row(state, "London", [bru[0], lon[2]], pieces={bru[0]: "yellow"})
    return state, lon, bru


def test_move_value_counts_a_taken_luxury_piece():
    eng = engine()
    state, lon, bru = _london_row_with_a_luxury_piece("value-piece")
    view = eng.view(state, 0)
    with_piece = eng.move_value(view, 0, {"type": "trade", "card": lon[0], "take": bru[0]})
    without = eng.move_value(view, 0, {"type": "trade", "card": lon[0], "take": lon[2]})
    assert with_piece > without
    assert eng.move_value(view, 0, {"type": "choose_start", "seat": 1}) == 0.0


def test_move_values_judges_each_move_on_its_own_board():
    """``move_values`` works out the view's snapshot once (what the bots ask); a move that
    changes the board (a card played, a piece taken, a marker moved) must not change the
    board the next move is judged on: each list's values equal each move judged alone."""
    eng = engine()
    state, _lon, _bru = _london_row_with_a_luxury_piece("value-list")
    view = eng.view(state, 0)
    moves = eng.legal_moves(state, 0)
    assert len({move["type"] for move in moves}) > 1  # board-changing kinds side by side
    alone = [eng.move_value(view, 0, move) for move in moves]
    assert eng.move_values(view, 0, moves) == alone
    assert eng.move_values(view, 0, moves[::-1]) == alone[::-1]
    assert len(set(alone)) > 1  # the moves differ in worth: a shared board would show


def test_result_before_the_end_does_not_count_face_down_persons():
    # the rulebook turns face-down cards up only at Final Scoring; until then the standings
    # (and their tie-break) must not tell how many person types lie face down
    eng = engine()
    state = start_game(4, seed="standings")
    other = eng.from_json(eng.to_json(state))
    for seat_state in (state, other):
        for seat in range(4):
            seat_state.face_up[seat] = []
            seat_state.face_down[seat] = []
    persons = cards_where(kind="person")
    give_face_up(state, 1, persons[:1])
    give_face_up(other, 1, persons[:1])
    letter = eng.data.cards[persons[0]].person
    face_down = [cid for cid in persons if eng.data.cards[cid].person != letter][:3]
    give_face_down(state, 1, face_down)
    # same number of face-down cards, but none of them a person
    give_face_down(other, 1, cards_where(kind="building")[:3])
    assert eng.result(state) == eng.result(other)
    assert eng.result(state)["tie_break"]["person_types"][1] == 1


def test_move_value_prefers_storing_the_full_allowance():
    # ruling Q10 lets a seat keep fewer pieces than its ships allow; a piece kept still
    # counts in later rounds (Q8), so the estimate must never prefer giving one up
    from rules.hansa import flow

    eng = engine()
    state = start_game(4, seed="value-store")
    for seat in range(4):
        state.face_up[seat] = []
        set_pieces(state, seat, {})
    give_face_up(state, 0, cards_where(kind="ship")[:2])
    set_pieces(state, 0, {"red": 2})
    flow.start_storage(state, eng.data, [])
    view = eng.view(state, 0)
    values = {m["pieces"]["red"]: eng.move_value(view, 0, m) for m in eng.legal_moves(state, 0)}
    assert values[2] > values[1] > values[0]
