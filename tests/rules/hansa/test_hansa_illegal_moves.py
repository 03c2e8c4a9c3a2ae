"""Every class of illegal or malformed move raises IllegalMove with a stable code and a
message, and leaves the state exactly as it was."""

from __future__ import annotations

import json

import pytest

from rules.engine import IllegalMove
from rules.hansa import flow

from .helpers import cards_where, data, engine, set_hand, set_pieces, start_game

LON = cards_where(city="London")
BRU = cards_where(city="Bruges")


def _turn_state():
    state = start_game(4, seed="illegal")
    set_hand(state, 0, [LON[0], BRU[0]])
    return state


def _keep_state():
    return engine().setup(4, {}, "illegal-keep")


def _store_state():
    state = start_game(4, seed="illegal-store")
    for seat in range(4):
        state.face_up[seat] = []
        set_pieces(state, seat, {})
    state.face_up[0] = cards_where(kind="ship")[:1]
    set_pieces(state, 0, {"red": 1, "blue": 1})
    flow.start_storage(state, data(), [])
    return state


def _choose_state():
    state = start_game(4, seed="illegal-choose")
    state.profit = [10, 5, 20, 30]
    for seat in range(4):
        state.pending[seat] = {"pieces": list(state.pieces[seat]), "forced": True}
    flow.resolve_storage(state, data(), [])
    return state


def _over_state():
    state = start_game(2, seed="illegal-over")
    flow.final_scoring(state, data(), [])
    return state


def _final_state():
    state = start_game(3, seed="illegal-final")
    state.round = 3
    state.phase = "final_card"
    return state


def _harbour_card(state, city_index):
    return state.rows[city_index][0]


CASES = [
    # (name, state factory, seat, move or callable(state) -> move, expected code)
    ("not a dict", _turn_state, 0, ["trade"], "malformed_move"),
    ("no type", _turn_state, 0, {"card": LON[0]}, "malformed_move"),
    ("type not a string", _turn_state, 0, {"type": 3}, "malformed_move"),
    ("unknown type", _turn_state, 0, {"type": "pass"}, "unknown_move_type"),
    ("missing field", _turn_state, 0, {"type": "trade"}, "malformed_move"),
    ("extra field", _turn_state, 0,
     lambda s: {"type": "trade", "card": LON[0], "take": _harbour_card(s, 0), "x": 1},
     "malformed_move"),
    ("card not a string", _turn_state, 0,
     lambda s: {"type": "trade", "card": 7, "take": _harbour_card(s, 0)}, "malformed_move"),
    ("take not a string", _turn_state, 0, {"type": "trade", "card": LON[0], "take": 5},
     "malformed_move"),
    ("seat out of range", _turn_state, 9,
     lambda s: {"type": "trade", "card": LON[0], "take": _harbour_card(s, 0)}, "invalid_seat"),
    ("seat not an int", _turn_state, "0",
     lambda s: {"type": "trade", "card": LON[0], "take": _harbour_card(s, 0)}, "invalid_seat"),
    ("not your turn", _turn_state, 1,
     lambda s: {"type": "trade", "card": s.hands[1][0], "take": _harbour_card(s, 0)},
     "not_your_turn"),
    ("card not in hand", _turn_state, 0,
     lambda s: {"type": "trade", "card": LON[5], "take": _harbour_card(s, 0)},
     "card_not_in_hand"),
    ("unknown card", _turn_state, 0,
     lambda s: {"type": "trade", "card": "zzz-99", "take": _harbour_card(s, 0)},
     "card_not_in_hand"),
    ("take from the sea", _turn_state, 0,
     lambda s: {"type": "trade", "card": LON[0], "take": s.rows[0][3]}, "card_not_in_harbour"),
    ("take from a hand", _turn_state, 0,
     lambda s: {"type": "trade", "card": LON[0], "take": s.hands[2][0]}, "card_not_in_harbour"),
    ("take from another harbour", _turn_state, 0,
     lambda s: {"type": "trade", "card": LON[0], "take": _harbour_card(s, 2)}, "wrong_harbour"),
    ("no take", _turn_state, 0, {"type": "trade", "card": LON[0], "take": None},
     "take_required"),
    ("unknown city", _turn_state, 0,
     lambda s: {"type": "parliament", "card": LON[0], "city": "Lubeck", "direction": 1,
                "take": _harbour_card(s, 2)}, "unknown_city"),
    ("bad direction", _turn_state, 0,
     lambda s: {"type": "parliament", "card": LON[0], "city": "Bergen", "direction": 2,
                "take": _harbour_card(s, 2)}, "invalid_direction"),
    ("bool direction", _turn_state, 0,
     lambda s: {"type": "parliament", "card": LON[0], "city": "Bergen", "direction": True,
                "take": _harbour_card(s, 2)}, "invalid_direction"),
    ("marker at the end", _turn_state, 0,
     lambda s: {"type": "parliament", "card": LON[0], "city": "Bergen", "direction": -1,
                "take": _harbour_card(s, 2)} if _put_at_start(s) else None,
     "prosperity_cannot_move"),
    ("keep in the turn phase", _turn_state, 0, {"type": "keep", "cards": [LON[0], BRU[0]]},
     "wrong_phase"),
    ("trade in the keep phase", _keep_state, 0,
     lambda s: {"type": "trade", "card": s.hands[0][0], "take": _harbour_card(s, 0)},
     "wrong_phase"),
    ("keep three", _keep_state, 0, lambda s: {"type": "keep", "cards": s.hands[0][:3]},
     "wrong_card_count"),
    ("keep one twice", _keep_state, 0,
     lambda s: {"type": "keep", "cards": [s.hands[0][0], s.hands[0][0]]}, "duplicate_card"),
    ("keep a card not dealt", _keep_state, 0,
     lambda s: {"type": "keep", "cards": [s.hands[0][0], s.hands[1][0]]}, "card_not_in_hand"),
    ("keep not a list", _keep_state, 0, {"type": "keep", "cards": "lon-01"}, "malformed_move"),
    ("keep twice", lambda: _kept(_keep_state()), 0,
     lambda s: {"type": "keep", "cards": s.hands[0][:2]}, "already_chosen"),
    ("store too many", _store_state, 0, {"type": "store", "pieces": {"red": 1, "blue": 1}},
     "too_many_pieces"),
    ("store pieces not owned", _store_state, 0, {"type": "store", "pieces": {"black": 1}},
     "not_enough_pieces"),
    ("store unknown colour", _store_state, 0, {"type": "store", "pieces": {"pink": 1}},
     "unknown_colour"),
    ("store negative", _store_state, 0, {"type": "store", "pieces": {"red": -1}},
     "malformed_move"),
    ("store not a dict", _store_state, 0, {"type": "store", "pieces": [1, 0]},
     "malformed_move"),
    ("store when settled", _store_state, 1, {"type": "store", "pieces": {}}, "already_chosen"),
    ("choose start, not poorest", _choose_state, 0, {"type": "choose_start", "seat": 0},
     "not_poorest_player"),
    ("choose a seat that is not there", _choose_state, 1, {"type": "choose_start", "seat": 4},
     "invalid_seat"),
    ("final card face sideways", _final_state, 0,
     lambda s: {"type": "final_card", "card": s.hands[0][0], "face": "sideways"},
     "invalid_face"),
    ("final card not in hand", _final_state, 0,
     lambda s: {"type": "final_card", "card": s.hands[1][0], "face": "up"}, "card_not_in_hand"),
    ("move after the end", _over_state, 0, {"type": "choose_start", "seat": 0}, "game_over"),
]


def _put_at_start(state):
    state.prosperity[2] = 0
    return True


def _kept(state):
    eng = engine()
    state, _ = eng.apply(state, 0, eng.legal_moves(state, 0)[0])
    return state


@pytest.mark.parametrize(("name", "make_state", "seat", "move", "code"), CASES,
                         ids=[case[0] for case in CASES])
def test_illegal_move_is_refused_and_changes_nothing(name, make_state, seat, move, code):
    eng = engine()
    state = make_state()
    if callable(move):
        move = move(state)
    before = json.dumps(eng.to_json(state), sort_keys=True)
    with pytest.raises(IllegalMove) as error:
        eng.apply(state, seat, move)
    assert error.value.code == code
    assert error.value.message
    assert json.dumps(eng.to_json(state), sort_keys=True) == before


def test_messages_never_name_hidden_cards():
    eng = engine()
    state = _turn_state()
    hidden = set(state.normal_deck + state.luxury_deck)
    for seat in range(1, 4):
        hidden |= set(state.hands[seat])
    for case in CASES:
        if case[1] is not _turn_state:
            continue
        move = case[3](state) if callable(case[3]) else case[3]
        with pytest.raises(IllegalMove) as error:
            eng.apply(state, case[2], move)
        text = error.value.message + json.dumps(error.value.details)
        mentioned = {cid for cid in hidden if cid in text}
        # a seat may only hear about cards the move itself named
        assert mentioned <= _strings_in(move)


def _strings_in(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return set().union(*(_strings_in(item) for item in value)) if value else set()
    return set()
