"""Set-up, options, catalogue, views and move_value of the Han engine."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path

import pytest
from han_positions import ALEX, BARBARA, DORIS, ENGINE, place, position

from rules import InvalidOptions, get_engine
from rules.han import board as board_module
from rules.han.board import get_board
from rules.han.engine import HanEngine
from rules.rng import SeededRng


def test_registry_gives_the_han_engine():
    assert isinstance(get_engine("han"), HanEngine)


@pytest.mark.parametrize(
    ("map_id", "players", "removed", "display"),
    [
        ("border-disputes", 5, 0, 4),
        ("border-disputes", 4, 1, 4),
        ("border-disputes", 3, 2, 4),
        ("ways-of-diplomacy", 4, 3, 3),
        ("ways-of-diplomacy", 3, 4, 3),
        ("ways-of-diplomacy", 2, 5, 3),
    ],
)
@pytest.mark.parametrize("variant", [False, True])
def test_setup_per_map_and_player_count(map_id, players, removed, display, variant):
    state = ENGINE.setup(players, {"map": map_id, "variant": variant}, "setup")
    full = {"violet": 10, "yellow": 11, "orange": 11, "green": 12, "red": 13}
    every_card = Counter(state.pile) + Counter(state.display)
    for hand in state.hands:
        assert len(hand) == 3
        every_card += Counter(hand)
    assert every_card == Counter({c: n - removed for c, n in full.items()})
    assert len(state.display) == display
    assert state.houses == [20] * players and state.emissary_supply == [9] * players
    expected_markers = (2 if players == 2 else 1) if variant else 0
    assert state.markers == [expected_markers] * players
    assert state.emperor == 0 and ENGINE.to_act(state) == [0]
    assert ENGINE.view(state, None)["phase"] == "placing"


def test_setup_is_deterministic_per_seed():
    a = ENGINE.setup(4, {"map": "border-disputes"}, "same")
    b = ENGINE.setup(4, {"map": "border-disputes"}, "same")
    c = ENGINE.setup(4, {"map": "border-disputes"}, "other")
    assert ENGINE.to_json(a) == ENGINE.to_json(b)
    assert ENGINE.to_json(a)["pile"] != ENGINE.to_json(c)["pile"]
    # the shuffle is the documented Fisher-Yates over the seeded stream
    board = get_board("border-disputes")
    deck = []
    for colour, count in zip(board.colors, board.card_counts, strict=True):
        deck.extend([colour] * (count - 1))
    SeededRng("same").shuffle(deck)
    dealt = [deck.pop() for _ in range(12)]
    assert sorted(dealt[0::4], key=board.color_index.get) == a.hands[0]


def test_normalize_options_defaults():
    assert ENGINE.normalize_options(4, None) == {"map": "border-disputes", "variant": False}
    assert ENGINE.normalize_options(2, {}) == {"map": "ways-of-diplomacy", "variant": False}
    assert ENGINE.normalize_options(3, {"map": "ways-of-diplomacy", "variant": True}) == {
        "map": "ways-of-diplomacy",
        "variant": True,
    }


@pytest.mark.parametrize(
    ("players", "options", "code", "field"),
    [
        (4, {"colour": "red"}, "unknown_option", "colour"),
        (4, {"map": "moon"}, "invalid_option", "map"),
        (4, {"map": 3}, "invalid_option", "map"),
        (4, {"variant": "yes"}, "invalid_option", "variant"),
        (2, {"map": "border-disputes"}, "invalid_player_count", "players"),
        (5, {"map": "ways-of-diplomacy"}, "invalid_player_count", "players"),
        (6, None, "invalid_player_count", "players"),
        (1, None, "invalid_player_count", "players"),
        ("4", None, "invalid_player_count", "players"),
        (True, None, "invalid_player_count", "players"),
    ],
)
def test_normalize_options_errors(players, options, code, field):
    with pytest.raises(InvalidOptions) as info:
        ENGINE.setup(players, options, "x")
    assert info.value.code == code
    assert info.value.details.get("field") == field
    assert info.value.message


def test_options_must_be_an_object():
    with pytest.raises(InvalidOptions) as info:
        ENGINE.normalize_options(4, ["map"])
    assert info.value.code == "invalid_option"


def test_describe():
    described = ENGINE.describe()
    assert described["game"] == "han" and described["title"] == "Han"
    assert described["players"] == {"min": 2, "max": 5}
    assert described["maps"]["border-disputes"]["players"] == [3, 5]
    assert described["maps"]["ways-of-diplomacy"]["players"] == [2, 4]
    schema = described["options"]["properties"]
    assert set(schema["map"]["enum"]) == {"border-disputes", "ways-of-diplomacy"}
    assert schema["variant"]["type"] == "boolean" and schema["variant"]["default"] is False
    assert described["rules_version"]
    json.dumps(described)


def test_describe_serves_each_board_for_clients_that_draw_the_map():
    described = ENGINE.describe()
    for map_id in ("border-disputes", "ways-of-diplomacy"):
        shipped = json.loads(
            (Path(board_module.__file__).parent / "boards" / f"{map_id}.json").read_text()
        )
        drawn = described["maps"][map_id]["board"]
        assert drawn == shipped
        assert all("at" in space for space in drawn["spaces"])
        assert all("polygon" in province for province in drawn["provinces"])
    # a caller editing its copy changes nothing for the next caller, nor for the rules
    described["maps"]["border-disputes"]["board"]["spaces"].clear()
    described["maps"]["border-disputes"]["players"].append(9)
    again = ENGINE.describe()
    assert again["maps"]["border-disputes"]["board"]["spaces"]
    assert again["maps"]["border-disputes"]["players"] == [3, 5]
    assert board_module.board_data("border-disputes")["spaces"]


def test_view_shows_own_hand_and_public_facts_only():
    state = position(
        variant=True,
        houses={ALEX: ["wei-1"]},
        fortified={"wei-2": BARBARA},
        emissaries={"wei": [1, 0, 0, 0]},
    )
    view = ENGINE.view(state, ALEX)
    assert view["hand"] == state.hands[ALEX]
    assert view["hand_sizes"] == [3, 3, 3, 3]
    assert view["pile_size"] == len(state.pile) and "pile" not in view
    assert view["board"]["spaces"]["wei-1"] == {"kind": "house", "seat": ALEX}
    assert view["board"]["spaces"]["wei-2"] == {"kind": "fortification", "seat": BARBARA}
    assert view["board"]["spaces"]["wei-3"] is None
    assert view["board"]["emissaries"]["wei"] == [1, 0, 0, 0]
    assert view["supply"][BARBARA] == {"houses": 19, "emissaries": 9, "markers": 0}
    assert view["turn"] == ALEX and view["phase"] == "placing" and view["emperor"] == 0
    assert not view["game_over"] and not view["final_round"] and view["depletions"] == 0
    spectator = ENGINE.view(state, None)
    assert "hand" not in spectator and spectator["seat"] is None
    text = json.dumps(spectator)
    assert "position" not in text  # the seed of the constructed position


def test_view_after_the_end_shows_every_hand_and_the_pile():
    # issue 3: "After the game ends everything is public" (an H11 end leaves a pile)
    state = position(hands={ALEX: ["red", "green", "violet"]})
    state.houses = [1, 0, 0, 0]
    state.emissary_supply = [0, 0, 0, 0]
    board = state.board
    for i, sid in enumerate(board.space_ids):
        if sid != "wei-1":
            state.space_kind[i], state.space_owner[i] = 1, i % 4
    state.refresh_counters()
    running = ENGINE.view(state, BARBARA)
    assert "pile" not in running and "hands" not in running
    over, _ = ENGINE.apply(state, ALEX, place(["red"], ("house", "wei-1")))
    assert ENGINE.is_over(over) and over.pile
    for viewer in (None, BARBARA):
        view = ENGINE.view(over, viewer)
        assert view["hands"] == over.hands
        assert view["pile"] == over.pile and view["pile_size"] == len(over.pile)


def test_move_value_counts_points_from_completed_provinces():
    state = position(
        variant=True,
        houses={ALEX: ["wei-1", "wei-2", "wei-3", "border-chin-wei"], BARBARA: ["wei-4", "wei-6"]},
        hands={DORIS: ["red", "red", "green"]},
        turn=DORIS,
    )
    view = ENGINE.view(state, DORIS)
    assert ENGINE.move_value(view, DORIS, place(["red"], ("house", "wei-5"))) == 2
    assert ENGINE.move_value(view, DORIS, place(["red"], ("emissary", "wei"))) == 0
    assert ENGINE.move_value(view, DORIS, {"type": "discard", "card": "red"}) == 0
    fort = {
        "type": "place",
        "cards": ["red", "red"],
        "pieces": [{"kind": "fortification", "space": "wei-5"}],
    }
    assert ENGINE.move_value(view, DORIS, fort) == 4
    assert ENGINE.move_value(view, DORIS, "nonsense") == 0
    # the engine agrees with what apply scores
    new, _ = ENGINE.apply(state, DORIS, place(["red"], ("house", "wei-5")))
    assert new.scores[DORIS] == 2


@pytest.fixture
def custom_board():
    """A board file in the same format but of another id and shape, as a new map would be."""
    files = board_module._board_files()
    data = copy.deepcopy(files["ways-of-diplomacy"])
    data["id"] = "test-custom"
    data["name"] = "Test Custom"
    data["players"] = [2, 3]
    data["alliances"] = data["alliances"][:5]
    data["roads"] = data["roads"][::2]
    files["test-custom"] = data
    yield "test-custom"
    del files["test-custom"]
    get_board.cache_clear()


def test_any_board_file_in_the_format_plays(custom_board):
    assert custom_board in ENGINE.describe()["maps"]
    for players in (2, 3):
        state = ENGINE.setup(players, {"map": custom_board, "variant": True}, "custom")
        chooser = SeededRng("custom")
        while not ENGINE.is_over(state):
            seat = ENGINE.to_act(state)[0]
            moves = ENGINE.legal_moves(state, seat)
            state, _ = ENGINE.apply(state, seat, moves[chooser.randbelow(len(moves))])
        result = ENGINE.result(state)
        assert all(set(map(int, b["alliances"])) <= set(range(1, 6)) for b in result["breakdown"])
