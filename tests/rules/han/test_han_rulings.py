"""Rulings H1-H13 and V1-V2 (docs/rulings.md), one group of tests each."""

from __future__ import annotations

from itertools import combinations

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
)

from rules.han.board import get_board
from rules.han.roads import _Solver
from rules.han.scoring import (
    alliance_points,
    final_result,
    port_points,
    rank_points,
    road_rows,
)
from rules.han.state import DRAWING, PLACING
from rules.rng import SeededRng

BD = "border-disputes"
WOD = "ways-of-diplomacy"


def fortification(space: str) -> dict:
    return {"kind": "fortification", "space": space}


def market_place(space: str) -> dict:
    return {"kind": "market_place", "space": space}


# -- H1 pieces per turn --------------------------------------------------------------------
def test_h1_empty_province_takes_one_piece_others_two():
    state = position(houses={BARBARA: ["wei-1"]}, hands={ALEX: ["red", "red", "yellow"]})
    assert is_legal(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    refused(
        state,
        ALEX,
        place(["red", "red"], ("house", "zhao-1"), ("house", "zhao-2")),
        "empty_province_limit",
    )


def test_h1_border_house_counts_in_both_provinces():
    # Yan holds a piece, Zhao does not: border house + a piece in Yan is fine, + Zhao is not
    state = position(houses={ALEX: ["yan-1"]}, hands={DORIS: ["red", "green", "green"]}, turn=DORIS)
    ok = place(["red", "green", "green"], ("house", "border-zhao-yan"), ("house", "yan-2"))
    assert is_legal(state, DORIS, ok)
    accepted(state, DORIS, ok)
    state.hands[DORIS] = ["red", "red", "green"]
    refused(
        state,
        DORIS,
        place(["red", "red", "green"], ("house", "border-zhao-yan"), ("house", "zhao-1")),
        "empty_province_limit",
    )


def test_h1_one_province_and_at_most_three_cards():
    state = position(houses={ALEX: ["wei-1", "qi-1"]}, hands={ALEX: ["red", "yellow", "green"]})
    refused(
        state,
        ALEX,
        place(["red", "yellow"], ("house", "wei-2"), ("house", "qi-2")),
        "different_provinces",
    )
    refused(
        state,
        ALEX,
        place(["red", "yellow", "green", "red"], ("house", "wei-2")),
        "too_many_cards",
    )


# -- H2 wild pairs -------------------------------------------------------------------------
def test_h2_wild_pair_stands_for_another_colour_only():
    state = position(hands={ALEX: ["red", "red", "green"]})
    assert is_legal(state, ALEX, place(["red", "red"], ("house", "yan-1")))
    refused(state, ALEX, place(["red", "red"], ("house", "wei-1")), "cards_do_not_match")


def test_h2_wild_pair_for_one_border_card():
    state = position(hands={ALEX: ["red", "violet", "violet"]})
    move = place(["red", "violet", "violet"], ("house", "border-zhao-yan"))
    assert is_legal(state, ALEX, move)
    accepted(state, ALEX, move)


# -- H3 border spaces ----------------------------------------------------------------------
def test_h3_border_card_combinations():
    for cards in (["red", "green"], ["red", "red"], ["green", "green"]):
        state = position(hands={ALEX: [*cards, "violet"]})
        assert is_legal(state, ALEX, place(cards, ("house", "border-zhao-yan")))
    state = position(hands={ALEX: ["red", "yellow", "yellow"]})
    for cards in (["red"], ["red", "yellow"], ["yellow", "yellow"]):
        refused(state, ALEX, place(cards, ("house", "border-zhao-yan")), "border_needs_two_cards")


def test_h3_border_house_counts_for_majorities_and_limits_in_both():
    state = position(
        houses={ALEX: ["border-zhao-yan"]}, hands={CHRIS: ["red", "green", "violet"]}, turn=CHRIS
    )
    assert is_legal(state, CHRIS, place(["red"], ("emissary", "zhao")))
    assert is_legal(state, CHRIS, place(["green"], ("emissary", "yan")))
    assert not is_legal(state, CHRIS, place(["violet"], ("emissary", "chu")))


# -- H4 emissary limit ---------------------------------------------------------------------
def test_h4_limit_counts_houses_placed_earlier_in_the_move():
    state = position(
        houses={BARBARA: ["wei-1"]},
        emissaries={"wei": [0, 1, 0, 0]},
        hands={BARBARA: ["red", "red", "violet"]},
        turn=BARBARA,
    )
    house_first = place(["red", "red"], ("house", "wei-2"), ("emissary", "wei"))
    assert is_legal(state, BARBARA, house_first)
    accepted(state, BARBARA, house_first)
    refused(
        state,
        BARBARA,
        place(["red", "red"], ("emissary", "wei"), ("house", "wei-2")),
        "emissary_limit",
    )


def test_h4_no_emissary_without_houses_and_markers_are_not_houses():
    state = position(hands={ALEX: ["red", "green", "violet"]})
    refused(state, ALEX, place(["red"], ("emissary", "wei")), "emissary_limit")
    wod = position(
        WOD,
        4,
        True,
        houses={ALEX: ["drum-tower-1"]},
        markets={"drum-tower-2": DORIS},
        emissaries={"drum-tower": [1, 0, 0, 0]},
        hands={DORIS: ["red", "red", "red"]},
        turn=DORIS,
    )
    # limit is 1 (Alex's house); the market place is no house
    refused(wod, DORIS, place(["red"], ("emissary", "drum-tower")), "emissary_limit")


# -- H5 house scoring ----------------------------------------------------------------------
def test_h5_dense_places():
    assert rank_points([3, 3, 2, 1]) == [9, 9, 3, 2]
    assert rank_points([4, 2, 0, 1]) == [7, 4, 0, 2]
    assert rank_points([0, 0, 5]) == [0, 0, 5]


def test_h5_fortification_doubles_its_owner_province_points():
    state = position(
        variant=True,
        houses={BARBARA: ["qi-1", "qi-2"], CHRIS: ["border-yan-qi"]},
        fortified={"qi-3": CHRIS},
        hands={DORIS: ["yellow", "green", "violet"]},
        turn=DORIS,
    )
    new, _ = accepted(state, DORIS, place(["yellow"], ("house", "qi-4")))
    assert new.scores == [0, 5, 10, 2]


# -- H6 completion -------------------------------------------------------------------------
def test_h6_border_house_completes_two_provinces_in_alliance_order():
    state = position(
        houses={
            ALEX: ["zhao-1", "zhao-2", "yan-1", "yan-2"],
            BARBARA: ["zhao-3", "yan-3", "yan-4", "border-yan-qi"],
        },
        hands={CHRIS: ["red", "green", "violet"]},
        turn=CHRIS,
    )
    new, events = accepted(state, CHRIS, place(["red", "green"], ("house", "border-zhao-yan")))
    scored = [e["province"] for e in events if e["type"] == "province_scored"]
    assert scored == ["yan", "zhao"]  # alliance 1 (Qi-Yan) comes before 2 (Yan-Zhao)
    # Zhao: Alex 2, Barbara 1, Chris 1 -> 4, 2, 2; Yan: Alex 2, Barbara 3, Chris 1 -> 3, 6, 2
    assert new.scores == [4 + 3, 2 + 6, 2 + 2, 0]
    # a scored province is not scored again, and emissaries may still go there
    new.turn, new.phase = DORIS, PLACING
    new.hands[DORIS] = ["red", "violet", "violet"]
    again, events = accepted(new, DORIS, place(["red"], ("emissary", "zhao")))
    assert not [e for e in events if e["type"] == "province_scored"]
    assert again.scores == new.scores


# -- H7 road rows --------------------------------------------------------------------------
SPIDER = [
    "wei-1",
    "border-chin-wei",
    "chin-3",
    "chin-2",
    "chin-1",
    "wei-2",
    "wei-3",
    "wei-4",
    "qi-4",
    "wei-5",
    "wei-6",
    "wu-2",
    "wu-1",
]


def _rows(houses, fortified=()):
    board = get_board(BD)
    return road_rows(
        board, {board.space_index[s] for s in houses}, {board.space_index[s] for s in fortified}
    )


def test_h7_vertex_disjoint_rows_cover_most_houses():
    points, rows = _rows(SPIDER)
    # one row of 9 through wei-1 and a separate leg of 4: 13 (the longest row alone is 9)
    assert points == 13
    assert all(len(r) >= 4 for r in rows)
    assert len({s for r in rows for s in r}) == sum(len(r) for r in rows) == 13


def test_h7_short_rows_do_not_count():
    # wei-1 has three roads: the fifth house is a branch, the row is 4
    points, rows = _rows(["wei-1", "wei-2", "wei-3", "wei-5", "border-chin-wei"])
    assert points == 4 and len(rows) == 1 and len(rows[0]) == 4
    assert _rows(["wei-1", "wei-2", "wei-3"]) == (0, [])


def test_h7_fortified_row_doubles_and_rows_maximise_the_doubled_total():
    # the fortification at the end of the Qi leg: leg Qi in the 9-row gives 18 + 4 = 22,
    # better than 9 + (4 * 2) = 17
    points, rows = _rows(SPIDER, fortified=["qi-4"])
    assert points == 22


def _brute_force_rows(board, houses):
    paths = set()

    def walk(path):
        if len(path) >= 4:
            paths.add(frozenset(path))
        for nxt in board.road_neighbours[path[-1]]:
            if nxt in houses and nxt not in path:
                walk([*path, nxt])

    for h in houses:
        walk([h])
    paths = list(paths)
    best = 0
    for k in range(1, 4):
        for combo in combinations(paths, k):
            cover = set()
            ok = True
            for p in combo:
                if cover & p:
                    ok = False
                    break
                cover |= p
            if ok:
                best = max(best, len(cover))
    return best


def test_h7_matches_brute_force_on_random_house_sets():
    for map_id in (BD, WOD):
        board = get_board(map_id)
        rng = SeededRng(f"h7-{map_id}")
        spaces = list(range(len(board.space_ids)))
        for _ in range(60):
            rng.shuffle(spaces)
            houses = set(spaces[: 8 + rng.randbelow(6)])
            assert road_rows(board, houses, set())[0] == _brute_force_rows(board, houses)


# -- H8 alliances --------------------------------------------------------------------------
def test_h8_ties_share_and_nobody_scores_without_emissaries():
    state = position(emissaries={"wei": [1, 1, 0, 0], "chin": [2, 2, 0, 1]})
    points = alliance_points(state)
    assert points[ALEX][3] == 7 and points[BARBARA][3] == 7
    assert 3 not in points[DORIS]
    assert not any(points[s] for s in (CHRIS,))
    empty = alliance_points(position())
    assert empty == [{}, {}, {}, {}]


# -- H9 drawing ----------------------------------------------------------------------------
def test_h9_one_card_at_a_time_and_display_refilled_when_hand_full():
    state = position(houses={ALEX: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    pile_before = len(state.pile)
    display_before = state.display[:]
    s1, _ = accepted(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    assert s1.phase == DRAWING and ENGINE.to_act(s1) == [ALEX]
    moves = ENGINE.legal_moves(s1, ALEX)
    assert {"type": "draw", "from": "pile"} in moves
    assert all(m["type"] == "draw" for m in moves)
    s2, events = accepted(s1, ALEX, {"type": "draw", "from": "display", "index": 1})
    assert s2.display == display_before[:1] + display_before[2:]  # not refilled yet
    assert ENGINE.to_act(s2) == [ALEX] and len(s2.hands[ALEX]) == 2
    assert events[0]["card"] == display_before[1]
    s3, events = accepted(s2, ALEX, {"type": "draw", "from": "pile"})
    assert len(s3.hands[ALEX]) == 3
    assert len(s3.display) == 4 and len(s3.pile) == pile_before - 2
    assert ENGINE.to_act(s3) == [BARBARA] and s3.phase == PLACING
    # a pile draw is the drawer's secret: others see "drew a card" (redact_event)
    assert events[0]["card"] in s3.hands[ALEX]
    assert "card" not in ENGINE.redact_event(events[0], BARBARA)
    assert "card" not in ENGINE.redact_event(events[0], None)
    assert ENGINE.redact_event(events[0], ALEX) == events[0]


def test_h9_discard_turn_may_draw_from_the_display():
    state = position(hands={ALEX: ["red", "green", "violet"]})
    s1, _ = accepted(state, ALEX, {"type": "discard", "card": "green"})
    assert s1.discard[-1] == "green" and s1.phase == DRAWING
    card = s1.display[0]
    s2, _ = accepted(s1, ALEX, {"type": "draw", "from": "display", "index": 0})
    assert card in s2.hands[ALEX] and ENGINE.to_act(s2) == [BARBARA]


# -- H10 pile depletion --------------------------------------------------------------------
def test_h10_first_depletion_reshuffles_discard_and_keeps_display():
    state = position(houses={BARBARA: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    state.discard.extend(state.pile[:-1])
    state.pile = state.pile[-1:]
    discard_size = len(state.discard)
    s1, _ = accepted(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    display = s1.display[:]
    s2, events = accepted(s1, ALEX, {"type": "draw", "from": "pile"})
    assert s2.depletions == 1 and not s2.final_round
    assert len(s2.pile) == discard_size + 2 and s2.discard == []
    assert s2.display == display
    assert any(e["type"] == "pile_reshuffled" for e in events)
    assert ENGINE.to_act(s2) == [ALEX]  # the drawing player continues
    s3, _ = accepted(s2, ALEX, {"type": "draw", "from": "pile"})
    assert ENGINE.to_act(s3) == [BARBARA]


def test_h10_second_depletion_finishes_the_round_without_drawing():
    state = position(
        houses={ALEX: ["wei-1"]}, hands={BARBARA: ["red", "red", "violet"]}, turn=BARBARA
    )
    state.depletions = 1
    state.pile = state.pile[-1:]
    s1, _ = accepted(state, BARBARA, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    s2, events = accepted(s1, BARBARA, {"type": "draw", "from": "pile"})
    assert s2.final_round and s2.last_seat == DORIS  # right of the Emperor (seat 0)
    assert len(s2.hands[BARBARA]) == 2  # stops drawing at once
    assert ENGINE.to_act(s2) == [CHRIS]
    moves = ENGINE.legal_moves(s2, CHRIS)
    discard = next(m for m in moves if m["type"] == "discard")
    s3, _ = accepted(s2, CHRIS, discard)
    assert len(s3.hands[CHRIS]) == 2 and ENGINE.to_act(s3) == [DORIS]
    s4, events = accepted(
        s3, DORIS, next(m for m in ENGINE.legal_moves(s3, DORIS) if m["type"] == "discard")
    )
    assert ENGINE.is_over(s4) and s4.end_reason == "pile_depleted"
    assert events[-1]["type"] == "game_over"
    assert ENGINE.to_act(s4) == []


# -- H11 deadlock --------------------------------------------------------------------------
def test_h11_game_ends_at_once_when_no_piece_can_be_placed():
    board = get_board(BD)
    spaces = [s for s in board.space_ids if s != "wei-1"]
    houses = {seat: spaces[seat::4] for seat in range(4)}
    state = position(houses=houses, hands={ALEX: ["red", "green", "violet"]})
    state.houses = [1, 0, 0, 0]
    state.emissary_supply = [0, 0, 0, 0]
    new, events = accepted(state, ALEX, place(["red"], ("house", "wei-1")))
    assert ENGINE.is_over(new) and new.end_reason == "no_placement"
    assert new.hands[ALEX] == ["violet", "green"]  # ended before drawing
    result = ENGINE.result(new)
    assert result["scores"] == [b["total"] for b in result["breakdown"]]


# -- H12 tie for the win -------------------------------------------------------------------
def test_h12_pieces_left_break_ties_then_shared_win():
    state = position()
    state.over, state.end_reason = True, "pile_depleted"
    result = ENGINE.result(state)
    assert result["ranks"] == [1, 1, 1, 1] and result["winners"] == [0, 1, 2, 3]
    state.houses[CHRIS] -= 1
    state.markers[ALEX] += 1  # unplaced markers count too
    result = final_result(state)
    assert result["ranks"] == [1, 2, 4, 2] and result["winners"] == [ALEX]
    assert result["tiebreak"]["pieces_left"] == [30, 29, 28, 29]


# -- H13 discard / pass --------------------------------------------------------------------
def test_h13_discard_always_allowed_and_pass_only_with_empty_hand():
    state = position(hands={ALEX: ["red", "red", "red"]})
    state.houses[ALEX] = 0
    state.emissary_supply[ALEX] = 0
    moves = ENGINE.legal_moves(state, ALEX)
    assert moves == [{"type": "discard", "card": "red"}]
    refused(state, ALEX, {"type": "pass"}, "cannot_pass")
    state.hands[ALEX] = []
    state.final_round, state.last_seat = True, DORIS
    assert ENGINE.legal_moves(state, ALEX) == [{"type": "pass"}]
    new, _ = accepted(state, ALEX, {"type": "pass"})
    assert ENGINE.to_act(new) == [BARBARA]


# -- V1 fortifications ---------------------------------------------------------------------
def test_v1_fortification_rules():
    state = position(
        variant=True,
        houses={ALEX: ["qi-1"]},
        hands={DORIS: ["yellow", "green", "green"]},
        turn=DORIS,
    )
    fort = {"type": "place", "cards": ["green", "green"], "pieces": [fortification("qi-2")]}
    refused(state, DORIS, fort, "cards_do_not_match")  # no wild pair
    state.hands[DORIS] = ["yellow", "yellow", "green"]
    refused(
        state,
        DORIS,
        {
            "type": "place",
            "cards": ["yellow", "yellow"],
            "pieces": [fortification("border-yan-qi")],
        },
        "fortification_on_border",
    )
    refused(
        state,
        DORIS,
        {"type": "place", "cards": ["yellow", "yellow"], "pieces": [fortification("chin-1")]},
        "empty_province_limit",
    )
    ok = {"type": "place", "cards": ["yellow", "yellow"], "pieces": [fortification("qi-2")]}
    state.houses[DORIS] = 0
    refused(state, DORIS, ok, "no_supply")
    state.houses[DORIS] = 20
    new, _ = accepted(state, DORIS, ok)
    new.phase = PLACING
    new.hands[DORIS] = ["yellow", "yellow", "green"]
    refused(
        new,
        DORIS,
        {"type": "place", "cards": ["yellow", "yellow"], "pieces": [fortification("qi-3")]},
        "no_supply",
    )  # one marker only
    plain = position(
        houses={ALEX: ["qi-1"]}, hands={DORIS: ["yellow", "yellow", "green"]}, turn=DORIS
    )
    refused(plain, DORIS, ok, "variant_not_enabled")


def test_v1_fortification_doubles_ports_and_road_rows():
    state = position(
        variant=True, houses={DORIS: ["qi-3", "wei-4"], ALEX: ["han-4"]}, fortified={"qi-4": DORIS}
    )
    assert port_points(state) == [3, 0, 0, 8]
    assert _rows(SPIDER, ["wei-6"])[0] == 9 * 2 + 4


# -- V2 market places ----------------------------------------------------------------------
def test_v2_market_place_rules():
    state = position(
        WOD,
        2,
        True,
        houses={ALEX: ["drum-tower-1"]},
        emissaries={"drum-tower": [1, 0]},
        hands={BARBARA: ["red", "red", "green"]},
        turn=BARBARA,
    )
    assert state.markers == [2, 2]  # two markers each in a 2-player game
    move = {"type": "place", "cards": ["red", "red"], "pieces": [market_place("drum-tower-2")]}
    assert is_legal(state, BARBARA, move)  # the emissary limit (1, reached) does not apply
    new, _ = accepted(state, BARBARA, move)
    dt = new.board.province_index["drum-tower"]
    assert new.emissaries[dt * 2 + BARBARA] == 0 and new.market_emissaries[dt * 2 + BARBARA] == 1
    assert new.markers[BARBARA] == 1 and new.emissary_supply[BARBARA] == 8
    refused(
        state,
        BARBARA,
        {"type": "place", "cards": ["green", "green"], "pieces": [market_place("drum-tower-2")]},
        "card_not_in_hand",
    )
    state.hands[BARBARA] = ["green", "green", "red"]
    refused(
        state,
        BARBARA,
        {"type": "place", "cards": ["green", "green"], "pieces": [market_place("drum-tower-2")]},
        "cards_do_not_match",
    )
    state.emissary_supply[BARBARA] = 0
    state.hands[BARBARA] = ["red", "red", "green"]
    refused(state, BARBARA, move, "no_supply")
    bd = position(variant=True, houses={ALEX: ["wei-1"]}, hands={ALEX: ["red", "red", "red"]})
    refused(
        bd,
        ALEX,
        {"type": "place", "cards": ["red", "red"], "pieces": [market_place("wei-2")]},
        "variant_not_enabled",
    )


def test_v2_market_emissaries_join_the_dragon_space_for_final_scoring():
    state = position(
        WOD,
        2,
        True,
        houses={ALEX: ["drum-tower-1", "scholars-quarter-1"]},
        markets={"drum-tower-2": BARBARA},
        emissaries={"drum-tower": [1, 0], "scholars-quarter": [0, 1]},
    )
    points = alliance_points(state)
    assert points[BARBARA][1] == 3  # alliance 1: Scholars' Quarter-Drum Tower
    assert 1 not in points[ALEX]  # Alex has no emissary in Scholars' Quarter


def _reference_rows(board, houses, fortified):
    """A plain exhaustive reference for H7: every simple path of >= 4 houses (worth doubled
    when fortified), then the best packing by memoised search on the lowest free house."""
    paths = {}

    def walk(path, mask):
        if len(path) >= 4:
            paths[mask] = len(path) * (2 if any(h in fortified for h in path) else 1)
        for nxt in board.road_neighbours[path[-1]]:
            if nxt in houses and not mask >> nxt & 1:
                walk([*path, nxt], mask | 1 << nxt)

    for h in houses:
        walk([h], 1 << h)
    memo = {}

    def best(free):
        if free == 0:
            return 0
        if free in memo:
            return memo[free]
        low = (free & -free).bit_length() - 1
        answer = best(free & ~(1 << low))
        for mask, value in paths.items():
            if mask >> low & 1 and mask & free == mask:
                answer = max(answer, value + best(free & ~mask))
        memo[free] = answer
        return answer

    return best(sum(1 << h for h in houses))


def test_h7_matches_reference_on_connected_regions_with_fortifications():
    for map_id in (BD, WOD):
        board = get_board(map_id)
        rng = SeededRng(f"h7-regions-{map_id}")
        cyclic = 0
        full = {h: list(board.road_neighbours[h]) for h in range(len(board.space_ids))}
        cycle = {h for edge in _Solver.shortest_cycle(full) for h in edge}
        for attempt in range(60):
            start = rng.randbelow(len(board.space_ids))
            region = set(cycle) if attempt % 2 else {start}
            size = len(region) + 4 + rng.randbelow(6)
            while len(region) < size:
                frontier = sorted({x for h in region for x in board.road_neighbours[h]} - region)
                if not frontier:
                    break
                region.add(frontier[rng.randbelow(len(frontier))])
            fortified = {h for h in region if rng.randbelow(6) == 0}
            points, rows = road_rows(board, region, fortified)
            assert points == _reference_rows(board, region, fortified)
            # the reported rows are real, disjoint rows of the player's houses worth the total
            seen = set()
            worth = 0
            for row in rows:
                assert len(row) >= 4 and not seen & set(row) and set(row) <= region
                seen |= set(row)
                for a, b in zip(row, row[1:], strict=False):
                    assert b in board.road_neighbours[a]
                worth += len(row) * (2 if fortified & set(row) else 1)
            assert worth == points
            roads = sum(1 for h in region for x in board.road_neighbours[h] if x in region) // 2
            cyclic += roads >= len(region)
        assert cyclic >= 5  # the cycle branch of the solver is exercised


def test_h7_a_ring_of_houses_is_one_row():
    ring = [
        "yan-2",
        "chin-4",
        "chin-2",
        "chin-3",
        "border-chin-wei",
        "wei-1",
        "wei-2",
        "yan-4",
        "yan-3",
    ]
    points, rows = _rows(ring)
    assert points == 9 and sum(len(r) for r in rows) == 9
    points, rows = _rows([*ring, "chin-1", "border-shu-chin", "shu-3", "wei-5", "wei-6"])
    board = get_board(BD)
    assert points == _reference_rows(
        board,
        {
            board.space_index[s]
            for s in [*ring, "chin-1", "border-shu-chin", "shu-3", "wei-5", "wei-6"]
        },
        set(),
    )


def test_h10_refill_can_run_the_pile_out_and_reshuffle_mid_refill():
    state = position(houses={BARBARA: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    state.discard = ["green"] * 5
    state.pile = state.pile[-3:]
    s1, _ = accepted(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    s2, _ = accepted(s1, ALEX, {"type": "draw", "from": "display", "index": 0})
    s3, events = accepted(s2, ALEX, {"type": "draw", "from": "display", "index": 0})
    # the hand is full: the display takes 2 of the pile's 3 cards
    assert len(s3.hands[ALEX]) == 3 and len(s3.display) == 4
    assert s3.depletions == 0 and len(s3.pile) == 1
    # next time, the refill takes the last pile card, reshuffles, and goes on
    s3.turn, s3.phase = ALEX, PLACING
    s3.hands[ALEX] = ["red", "red", "violet"]
    s4, _ = accepted(s3, ALEX, place(["red", "red"], ("house", "wei-4"), ("house", "wei-5")))
    s5, _ = accepted(s4, ALEX, {"type": "draw", "from": "display", "index": 0})
    s6, events = accepted(s5, ALEX, {"type": "draw", "from": "display", "index": 0})
    types = [e["type"] for e in events]
    assert types.index("pile_reshuffled") < types.index("display_refilled")
    assert s6.depletions == 1 and len(s6.display) == 4
    assert len(s6.pile) == 5 + 2 + 2 - 1  # discards reshuffled, one more card refilled


def test_h10_nothing_to_reshuffle_counts_as_the_second_depletion():
    state = position(hands={ALEX: ["red", "green", "violet"], BARBARA: ["red"] * 3})
    state.pile = state.pile[-1:]
    state.discard = []
    s1, _ = accepted(state, ALEX, {"type": "discard", "card": "red"})
    # the discard pile holds the red card just discarded: that is the new pile
    s2, _ = accepted(s1, ALEX, {"type": "draw", "from": "pile"})
    assert s2.depletions == 1 and s2.pile == ["red"]
    empty = position(houses={ALEX: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    empty.pile = empty.pile[-1:]
    empty.discard = []
    t1, _ = accepted(empty, ALEX, place(["violet"], ("house", "chu-1")))
    t1.discard = []  # nothing at all to reshuffle
    t2, events = accepted(t1, ALEX, {"type": "draw", "from": "pile"})
    assert t2.depletions == 2 and t2.final_round
    assert [e["type"] for e in events if e["type"] in ("pile_reshuffled", "final_round")] == [
        "pile_reshuffled",
        "final_round",
    ]


def test_h10_final_round_placements_draw_nothing():
    state = position(houses={BARBARA: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    state.final_round, state.depletions, state.last_seat = True, 2, DORIS
    pile = state.pile[:]
    display = state.display[:]
    new, _ = accepted(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    assert new.hands[ALEX] == ["violet"] and ENGINE.to_act(new) == [BARBARA]
    assert new.pile == pile and new.display == display


def _depletion_round(map_id: str, players: int, depleting: int) -> list[int]:
    """The pile runs out for the second time as ``depleting`` draws; the seats that still
    play afterwards (each discards or passes), until the game is over."""
    hands = {s: ["red", "green", "violet"] for s in range(players)}
    state = position(map_id, players, hands=hands, turn=depleting)
    state.depletions, state.pile = 1, state.pile[-1:]
    state, _ = accepted(state, depleting, {"type": "discard", "card": "red"})
    state, events = accepted(state, depleting, {"type": "draw", "from": "pile"})
    assert state.final_round and len(state.hands[depleting]) == 3
    assert [e["last_seat"] for e in events if e["type"] == "final_round"] == [players - 1]
    played = []
    while not ENGINE.is_over(state):
        seat = ENGINE.to_act(state)[0]
        played.append(seat)
        hand = state.hands[seat]
        move = {"type": "discard", "card": hand[0]} if hand else {"type": "pass"}
        state, _ = accepted(state, seat, move)
        assert len(state.hands[seat]) == max(len(hand) - 1, 0)  # nobody draws any more
    assert state.end_reason == "pile_depleted"
    return played


def test_h10_the_last_round_ends_with_the_seat_before_the_emperor_whoever_depletes():
    # ruling H10: the Emperor (seat 0) opens every round, so the round in progress ends with
    # the last seat, also when the Emperor's holder or that last seat itself ran the pile out
    for map_id, players in ((BD, 3), (BD, 4), (BD, 5), (WOD, 2)):
        for depleting in range(players):
            played = _depletion_round(map_id, players, depleting)
            assert played == list(range(depleting + 1, players)), (players, depleting)


def test_h10_the_reshuffle_draws_from_the_match_rng_stream():
    state = position(houses={BARBARA: ["wei-1"]}, hands={ALEX: ["red", "red", "violet"]})
    state.discard = ["green", "orange", "yellow", "violet", "red", "green", "yellow"]
    state.pile = state.pile[-1:]
    s1, _ = accepted(state, ALEX, place(["red", "red"], ("house", "wei-2"), ("house", "wei-3")))
    expected = s1.discard[:]
    stream = s1.rng.copy()
    stream.shuffle(expected)  # the next Fisher-Yates of the same seeded stream
    s2, _ = accepted(s1, ALEX, {"type": "draw", "from": "pile"})
    assert s2.pile == expected and s2.rng == stream
    assert s2.rng.seed == state.rng.seed


def test_h4_a_house_scoring_between_the_pieces_changes_nothing_about_the_limit():
    # Doris's house completes Zhao (scored at once, H6); her emissary is then checked against
    # the limit counted with that house (Alex 2: limit 2, one emissary present)
    state = position(
        houses={ALEX: ["zhao-1", "zhao-2"], BARBARA: ["border-zhao-yan"]},
        emissaries={"zhao": [0, 1, 0, 0]},
        hands={DORIS: ["red", "red", "violet"]},
        turn=DORIS,
    )
    move = place(["red", "red"], ("house", "zhao-3"), ("emissary", "zhao"))
    new, events = accepted(state, DORIS, move)
    assert [e["type"] for e in events][:2] == ["placed", "province_scored"]
    assert new.scores == [4, 2, 0, 2]
    zhao = new.board.province_index["zhao"]
    assert new.emissaries[zhao * 4 + DORIS] == 1
    state.emissaries[zhao * 4 + BARBARA] = 2  # now the limit is already reached
    refused(state, DORIS, move, "emissary_limit")


def test_h1_border_house_second_piece_on_the_other_side():
    # the mirror of test_h1_border_house_counts_in_both_provinces: Zhao holds a piece, Yan not
    state = position(houses={ALEX: ["zhao-1"]}, hands={DORIS: ["red", "red", "green"]}, turn=DORIS)
    assert is_legal(
        state,
        DORIS,
        place(["red", "red", "green"], ("house", "border-zhao-yan"), ("house", "zhao-2")),
    )
    assert is_legal(
        state,
        DORIS,
        place(["red", "red", "green"], ("house", "border-zhao-yan"), ("emissary", "zhao")),
    )
    state.hands[DORIS] = ["red", "green", "green"]
    refused(
        state,
        DORIS,
        place(["red", "green", "green"], ("house", "border-zhao-yan"), ("house", "yan-2")),
        "empty_province_limit",
    )
