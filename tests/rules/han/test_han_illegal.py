"""Every class of illegal or malformed move: IllegalMove with a stable code and a message
naming the problem, and the state left exactly as it was."""

from __future__ import annotations

import pytest
from han_positions import ALEX, BARBARA, ENGINE, accepted, place, position, refused

from rules import IllegalMove


def base():
    return position(
        houses={BARBARA: ["wei-1"], ALEX: ["border-chin-wei"]},
        emissaries={"wei": [0, 1, 0, 0]},
        hands={ALEX: ["red", "red", "yellow"]},
    )


@pytest.mark.parametrize(
    ("move", "code"),
    [
        ("place", "malformed_move"),
        ([], "malformed_move"),
        ({}, "malformed_move"),
        ({"type": 3}, "malformed_move"),
        ({"type": "build"}, "unknown_move_type"),
        ({"type": "place", "cards": ["red"]}, "malformed_move"),
        ({"type": "place", "cards": "red", "pieces": []}, "malformed_move"),
        (
            {"type": "place", "cards": [], "pieces": [{"kind": "house", "space": "wei-2"}]},
            "malformed_move",
        ),
        ({"type": "place", "cards": ["red"], "pieces": []}, "malformed_move"),
        ({"type": "place", "cards": ["red"], "pieces": ["wei-2"]}, "malformed_move"),
        (
            {"type": "place", "cards": [1], "pieces": [{"kind": "house", "space": "wei-2"}]},
            "malformed_move",
        ),
        (
            {
                "type": "place",
                "cards": ["red"],
                "pieces": [{"kind": "house", "space": "wei-2"}],
                "extra": 1,
            },
            "malformed_move",
        ),
        (
            {"type": "place", "cards": ["red"], "pieces": [{"kind": "house", "province": "wei"}]},
            "malformed_move",
        ),
        (
            {
                "type": "place",
                "cards": ["red"],
                "pieces": [{"kind": "house", "space": "wei-2", "seat": 1}],
            },
            "malformed_move",
        ),
        (
            {"type": "place", "cards": ["red"], "pieces": [{"kind": "house", "space": 7}]},
            "malformed_move",
        ),
        (
            {"type": "place", "cards": ["blue"], "pieces": [{"kind": "house", "space": "wei-2"}]},
            "unknown_card",
        ),
        (
            {"type": "place", "cards": ["red"], "pieces": [{"kind": "tower", "space": "wei-2"}]},
            "unknown_piece_kind",
        ),
        (place(["red"], ("house", "wei-99")), "unknown_space"),
        (place(["red"], ("emissary", "atlantis")), "unknown_province"),
        ({"type": "discard"}, "malformed_move"),
        ({"type": "discard", "card": ["red"]}, "malformed_move"),
        ({"type": "discard", "card": "blue"}, "unknown_card"),
        ({"type": "pass", "now": True}, "malformed_move"),
    ],
)
def test_malformed_moves(move, code):
    refused(base(), ALEX, move, code)


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (place(["violet"], ("house", "chu-1")), "card_not_in_hand"),
        (place(["red", "red", "red"], ("house", "wei-2"), ("house", "wei-3")), "card_not_in_hand"),
        ({"type": "discard", "card": "orange"}, "card_not_in_hand"),
        (place(["red", "yellow", "green", "green"], ("house", "wei-2")), "too_many_cards"),
        (
            place(
                ["red", "red", "yellow"],
                ("house", "wei-2"),
                ("house", "wei-3"),
                ("emissary", "wei"),
            ),
            "too_many_pieces",
        ),
        (place(["red", "yellow"], ("house", "wei-2"), ("house", "qi-1")), "different_provinces"),
        (place(["red", "red"], ("house", "zhao-1"), ("house", "zhao-2")), "empty_province_limit"),
        (place(["red"], ("emissary", "wei")), "emissary_limit"),
        (place(["red"], ("house", "wei-1")), "space_occupied"),
        (place(["red", "red"], ("house", "wei-2"), ("house", "wei-2")), "space_occupied"),
        (place(["yellow"], ("house", "wei-2")), "cards_do_not_match"),
        (place(["red", "yellow"], ("house", "wei-2")), "cards_do_not_match"),
        (place(["red", "yellow"], ("house", "border-zhao-yan")), "border_needs_two_cards"),
        (place(["yellow"], ("house", "border-zhao-yan")), "border_needs_two_cards"),
        (
            {
                "type": "place",
                "cards": ["red", "red"],
                "pieces": [{"kind": "fortification", "space": "wei-2"}],
            },
            "variant_not_enabled",
        ),
        (
            {
                "type": "place",
                "cards": ["red", "red"],
                "pieces": [{"kind": "market_place", "space": "wei-2"}],
            },
            "variant_not_enabled",
        ),
        ({"type": "pass"}, "cannot_pass"),
        ({"type": "draw", "from": "pile"}, "wrong_phase"),
    ],
)
def test_rule_violations(move, code):
    refused(base(), ALEX, move, code)


def test_not_your_turn_and_game_over():
    state = base()
    refused(state, BARBARA, place(["red"], ("house", "wei-2")), "not_your_turn")
    state.over, state.end_reason = True, "pile_depleted"
    refused(state, ALEX, place(["red"], ("house", "wei-2")), "game_over")
    assert ENGINE.legal_moves(state, ALEX) == [] and ENGINE.to_act(state) == []


def test_no_supply():
    state = base()
    state.houses[ALEX] = 1
    refused(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")), "no_supply")
    state.houses[ALEX] = 0
    refused(state, ALEX, place(["red"], ("house", "wei-2")), "no_supply")
    state = base()
    state.emissary_supply[ALEX] = 0
    refused(state, ALEX, place(["yellow"], ("emissary", "chin")), "no_supply")


def test_fortification_on_border():
    state = position(
        variant=True, houses={ALEX: ["wei-1", "chin-1"]}, hands={ALEX: ["red", "red", "yellow"]}
    )
    refused(
        state,
        ALEX,
        {
            "type": "place",
            "cards": ["red", "red"],
            "pieces": [{"kind": "fortification", "space": "border-chin-wei"}],
        },
        "fortification_on_border",
    )


def test_drawing_phase_errors():
    state = base()
    state.hands[ALEX] = ["red", "red", "green"]
    drawing, _ = accepted(
        state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3"))
    )
    refused(drawing, ALEX, place(["green"], ("house", "yan-1")), "wrong_phase")
    refused(drawing, ALEX, {"type": "discard", "card": "green"}, "wrong_phase")
    size = len(drawing.display)
    error = refused(
        drawing,
        ALEX,
        {"type": "draw", "from": "display", "index": size},
        "display_index_out_of_range",
    )
    assert all(card not in error.message for card in drawing.pile[-1:])  # nothing hidden
    refused(
        drawing,
        ALEX,
        {"type": "draw", "from": "display", "index": -1},
        "display_index_out_of_range",
    )
    refused(drawing, ALEX, {"type": "draw", "from": "display", "index": True}, "malformed_move")
    refused(drawing, ALEX, {"type": "draw", "from": "display"}, "malformed_move")
    refused(drawing, ALEX, {"type": "draw", "from": "hand"}, "malformed_move")
    refused(drawing, ALEX, {"type": "draw", "from": "pile", "index": 0}, "malformed_move")
    refused(drawing, BARBARA, {"type": "draw", "from": "pile"}, "not_your_turn")
    drawing.pile = []
    refused(drawing, ALEX, {"type": "draw", "from": "pile"}, "pile_empty")


def test_result_before_the_end_is_refused():
    with pytest.raises(IllegalMove) as info:
        ENGINE.result(base())
    assert info.value.code == "game_not_over"
