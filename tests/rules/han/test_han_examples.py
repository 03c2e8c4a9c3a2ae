"""The ten numbered examples of the Han rulebook, on the real boards (Border Disputes unless
the example is about market places)."""

from __future__ import annotations

from han_positions import (
    ALEX,
    BARBARA,
    CHRIS,
    DORIS,
    ENGINE,
    accepted,
    is_legal,
    place,
    position,
    refused,
    space_seat,
)

from rules.han.scoring import alliance_points, player_road_rows, port_points
from rules.han.state import FORTIFIED_HOUSE


def test_example_1_barbara_one_piece_in_empty_wei():
    state = position(hands={BARBARA: ["violet", "red", "red"]}, turn=BARBARA)
    refused(
        state,
        BARBARA,
        place(["red", "red"], ("house", "wei-3"), ("house", "wei-4")),
        "empty_province_limit",
    )
    move = place(["red"], ("house", "wei-3"))
    assert is_legal(state, BARBARA, move)
    new, _ = accepted(state, BARBARA, move)
    assert space_seat(new, "wei-3") == BARBARA
    assert new.hands[BARBARA] == ["violet", "red"]
    # she placed in one province: her turn goes on with drawing only
    assert ENGINE.view(new, BARBARA)["phase"] == "drawing"


def test_example_1_alex_red_card_and_green_wild_pair_in_wei():
    state = position(houses={BARBARA: ["wei-3"]}, hands={ALEX: ["red", "green", "green"]})
    move = place(["red", "green", "green"], ("house", "wei-1"), ("house", "wei-2"))
    assert is_legal(state, ALEX, move)
    new, _ = accepted(state, ALEX, move)
    assert space_seat(new, "wei-1") == ALEX and space_seat(new, "wei-2") == ALEX
    assert new.hands[ALEX] == []


def test_example_1_doris_three_yellow_cards():
    state = position(houses={ALEX: ["qi-1", "chin-1"]}, hands={DORIS: ["yellow"] * 3}, turn=DORIS)
    # two pieces in Qi (or Ch'in) with two yellow cards
    assert is_legal(state, DORIS, place(["yellow", "yellow"], ("house", "qi-2"), ("house", "qi-3")))
    assert is_legal(
        state, DORIS, place(["yellow", "yellow"], ("house", "chin-2"), ("emissary", "chin"))
    )
    # or the pair as a wild card: one piece in a province other than Qi or Ch'in
    assert is_legal(state, DORIS, place(["yellow", "yellow"], ("house", "wei-1")))
    # never three pieces, and the third yellow card is no wild card on its own
    refused(
        state,
        DORIS,
        place(["yellow"] * 3, ("house", "qi-2"), ("house", "qi-3"), ("emissary", "qi")),
        "too_many_pieces",
    )
    refused(state, DORIS, place(["yellow"] * 3, ("house", "qi-2")), "cards_do_not_match")


def test_example_2_emissary_limit_is_the_house_majority():
    state = position(
        houses={ALEX: ["wei-1", "wei-2", "wei-3", "wei-5"], BARBARA: ["wei-4", "wei-6"]},
        emissaries={"wei": [1, 1, 0, 0]},
        hands={DORIS: ["red", "red", "orange"]},
        turn=DORIS,
    )
    move = place(["red", "red"], ("emissary", "wei"), ("emissary", "wei"))
    assert is_legal(state, DORIS, move)
    new, _ = accepted(state, DORIS, move)
    wei = new.board.province_index["wei"]
    assert new.emissaries[wei * 4 + DORIS] == 2
    # Wei is at its limit of 4 now
    new.turn, new.phase = ALEX, 0
    new.hands[ALEX] = ["red", "red", "red"]
    refused(new, ALEX, place(["red"], ("emissary", "wei")), "emissary_limit")


def test_example_3_emissaries_in_chin_with_a_wild_pair():
    state = position(
        houses={DORIS: ["chin-1", "chin-2"], BARBARA: ["chin-3", "chin-4"]},
        hands={DORIS: ["red", "red", "yellow"]},
        turn=DORIS,
    )
    two_emissaries = place(["red", "red", "yellow"], ("emissary", "chin"), ("emissary", "chin"))
    assert is_legal(state, DORIS, two_emissaries)
    assert is_legal(
        state, DORIS, place(["red", "red", "yellow"], ("house", "chin-5"), ("emissary", "chin"))
    )
    new, _ = accepted(state, DORIS, two_emissaries)
    chin = new.board.province_index["chin"]
    assert new.emissaries[chin * 4 + DORIS] == 2
    new.phase = 0
    new.hands[DORIS] = ["yellow"]
    refused(new, DORIS, place(["yellow"], ("emissary", "chin")), "emissary_limit")


def test_example_3_two_houses_also_possible():
    state = position(
        houses={DORIS: ["chin-1", "chin-2"], BARBARA: ["chin-3", "chin-4"]},
        hands={DORIS: ["red", "red", "yellow"]},
        turn=DORIS,
    )
    assert (
        is_legal(
            state, DORIS, place(["red", "red", "yellow"], ("house", "chin-5"), ("house", "chin-3"))
        )
        is False
    )  # chin-3 is taken
    state.space_kind[state.board.space_index["chin-3"]] = 0
    state.refresh_counters()
    assert is_legal(
        state, DORIS, place(["red", "red", "yellow"], ("house", "chin-3"), ("house", "chin-5"))
    )


def test_example_4_house_scoring_in_wei():
    state = position(
        houses={
            ALEX: ["wei-1", "wei-2", "wei-3", "border-chin-wei"],
            BARBARA: ["wei-4", "wei-6"],
        },
        hands={DORIS: ["red", "green", "violet"]},
        turn=DORIS,
    )
    new, events = accepted(state, DORIS, place(["red"], ("house", "wei-5")))
    scored = [e for e in events if e["type"] == "province_scored"]
    assert [e["province"] for e in scored] == ["wei"]
    assert scored[0]["points"] == [7, 4, 0, 2]
    assert new.scores == [7, 4, 0, 2]
    assert new.scored[new.board.province_index["wei"]]


def test_example_5_tie_for_most_houses_in_qi():
    state = position(
        houses={BARBARA: ["qi-1", "qi-2"], CHRIS: ["qi-3", "border-yan-qi"]},
        hands={DORIS: ["yellow", "green", "violet"]},
        turn=DORIS,
    )
    new, events = accepted(state, DORIS, place(["yellow"], ("house", "qi-4")))
    assert new.scores == [0, 5, 5, 2]


def test_example_6_alliances_wei_chin_and_chin_shu():
    state = position(
        emissaries={"wei": [0, 1, 0, 1], "chin": [1, 1, 0, 2], "shu": [0, 0, 2, 1]},
    )
    points = alliance_points(state)
    assert points[DORIS].get(3) == 6  # Wei-Ch'in: 4 + 2
    assert all(3 not in points[s] for s in (ALEX, BARBARA, CHRIS))
    assert all(4 not in points[s] for s in range(4))  # Ch'in-Shu: nobody


def test_example_7_row_of_five_with_a_branch():
    state = position(
        houses={DORIS: ["shu-1", "shu-2", "shu-3", "border-shu-chin", "chin-1", "shu-4"]}
    )
    points, rows = player_road_rows(state, DORIS)
    assert points == 5
    assert len(rows) == 1 and len(rows[0]) == 5


def test_example_8_port_scoring():
    state = position(
        houses={DORIS: ["qi-3", "qi-4", "wei-4", "chu-6"], ALEX: ["han-4", "wu-3"]},
    )
    assert port_points(state) == [4, 0, 0, 6]


def test_example_9_fortification_in_qi():
    state = position(
        variant=True, houses={ALEX: ["qi-1"]}, hands={DORIS: ["yellow"] * 3}, turn=DORIS
    )
    move = {
        "type": "place",
        "cards": ["yellow", "yellow"],
        "pieces": [{"kind": "fortification", "space": "qi-2"}],
    }
    assert is_legal(state, DORIS, move)
    refused(
        state,
        DORIS,
        {
            "type": "place",
            "cards": ["yellow"] * 3,
            "pieces": [
                {"kind": "fortification", "space": "qi-2"},
                {"kind": "house", "space": "qi-3"},
            ],
        },
        "too_many_pieces",
    )
    new, _ = accepted(state, DORIS, move)
    i = new.board.space_index["qi-2"]
    assert new.space_kind[i] == FORTIFIED_HOUSE and new.space_owner[i] == DORIS
    assert new.markers[DORIS] == 0 and new.houses[DORIS] == 19
    assert new.hands[DORIS] == ["yellow"]


def test_example_10_market_place_keeps_the_alliance_chance():
    state = position(
        "ways-of-diplomacy",
        4,
        True,
        houses={
            BARBARA: ["temple-quarter-1", "temple-quarter-2", "temple-quarter-3"],
            ALEX: ["temple-quarter-4"],
            DORIS: ["jade-gate-1"],
        },
        emissaries={"temple-quarter": [0, 2, 0, 1], "jade-gate": [0, 0, 0, 1]},
        hands={DORIS: ["green", "green", "red"]},
        turn=DORIS,
    )
    refused(state, DORIS, place(["green"], ("emissary", "temple-quarter")), "emissary_limit")
    before = alliance_points(state)
    assert 8 not in before[DORIS]  # Temple Quarter-Jade Gate: Barbara leads Temple Quarter
    move = {
        "type": "place",
        "cards": ["green", "green"],
        "pieces": [{"kind": "market_place", "space": "temple-quarter-5"}],
    }
    assert is_legal(state, DORIS, move)
    new, events = accepted(state, DORIS, move)
    tq = new.board.province_index["temple-quarter"]
    assert new.emissaries[tq * 4 + DORIS] == 1  # not on the dragon space during the game
    assert new.market_emissaries[tq * 4 + DORIS] == 1
    # the market place fills the district's last space (H6) but is not a house (V2)
    scored = [e for e in events if e["type"] == "province_scored"]
    assert scored and scored[0]["points"] == [3, 4, 0, 0]
    after = alliance_points(new)
    assert after[DORIS][8] == 4 + 1  # 4 emissaries in Temple Quarter, 1 in Jade Gate
    assert 8 not in after[BARBARA]
