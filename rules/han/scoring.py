"""Han scoring: house scoring (provinces and ports), alliances, road rows, final result.

Every function here reads a state and returns numbers; none of them mutates anything.
"""

from __future__ import annotations

from rules.han.board import Board
from rules.han.roads import best_rows
from rules.han.state import EMPTY, FORTIFIED_HOUSE, MARKET, HanState


def rank_points(counts: list[int]) -> list[int]:
    """Ruling H5: dense places by house count; 1st scores the total number of houses, the
    k-th place scores the count at place k-1; no house, no points."""
    levels = sorted({c for c in counts if c > 0}, reverse=True)
    total = sum(counts)
    points = []
    for c in counts:
        if c <= 0:
            points.append(0)
            continue
        k = levels.index(c)
        points.append(total if k == 0 else levels[k - 1])
    return points


def province_points(state: HanState, province: int) -> list[int]:
    """House scoring of one province, fortification doubling included (rulings H5, V1)."""
    n = state.players
    board = state.board
    counts = state.province_houses[province * n : province * n + n]
    points = rank_points(counts)
    for space in board.province_spaces[province]:
        if state.space_kind[space] == FORTIFIED_HOUSE:
            points[state.space_owner[space]] *= 2
    return points


def port_points(state: HanState) -> list[int]:
    """Ports scored like one more province (rulebook, Example 8; ruling H5 for doubling)."""
    n = state.players
    counts = [0] * n
    fortified = [False] * n
    for space in state.board.port_spaces:
        kind = state.space_kind[space]
        if kind == EMPTY or kind == MARKET:
            continue
        counts[state.space_owner[space]] += 1
        if kind == FORTIFIED_HOUSE:
            fortified[state.space_owner[space]] = True
    points = rank_points(counts)
    return [p * 2 if f else p for p, f in zip(points, fortified, strict=True)]


def alliance_points(state: HanState) -> list[dict[int, int]]:
    """Ruling H8 (market-place emissaries join the dragon spaces first: ruling V2)."""
    n = state.players
    board = state.board
    totals = [a + b for a, b in zip(state.emissaries, state.market_emissaries, strict=True)]
    result: list[dict[int, int]] = [{} for _ in range(n)]
    for number, a, b in board.alliances:
        row_a = totals[a * n : a * n + n]
        row_b = totals[b * n : b * n + n]
        max_a, max_b = max(row_a), max(row_b)
        if max_a == 0 or max_b == 0:
            continue
        worth = sum(row_a) + sum(row_b)
        for seat in range(n):
            if row_a[seat] == max_a and row_b[seat] == max_b:
                result[seat][number] = worth
    return result


def road_rows(board: Board, houses: set[int], fortified: set[int]) -> tuple[int, list[list[int]]]:
    """Ruling H7 for one player: (points, rows as lists of space indices); see roads.py."""
    neighbours = {h: [x for x in board.road_neighbours[h] if x in houses] for h in houses}
    return best_rows(neighbours, fortified)


def player_road_rows(state: HanState, seat: int) -> tuple[int, list[list[int]]]:
    houses: set[int] = set()
    fortified: set[int] = set()
    for space, owner in enumerate(state.space_owner):
        kind = state.space_kind[space]
        if owner == seat and kind != EMPTY and kind != MARKET:
            houses.add(space)
            if kind == FORTIFIED_HOUSE:
                fortified.add(space)
    return road_rows(state.board, houses, fortified)


def final_result(state: HanState) -> dict:
    """Final scoring in rulebook order: unscored provinces, alliances, roads, ports."""
    board = state.board
    n = state.players
    provinces: list[dict[str, int]] = [{} for _ in range(n)]
    for p, pid in enumerate(board.province_ids):
        if state.scored[p]:
            pts = state.province_points[p * n : p * n + n]
        else:
            pts = province_points(state, p)
        for seat in range(n):
            if pts[seat]:
                provinces[seat][pid] = pts[seat]
    alliances = alliance_points(state)
    ports = port_points(state) if board.port_spaces else [0] * n
    breakdown = []
    scores = []
    for seat in range(n):
        roads, rows = player_road_rows(state, seat)
        # rows are reported with the points each earned (doubled where fortified)
        row_list = []
        for row in rows:
            worth = len(row) * (
                2 if any(state.space_kind[s] == FORTIFIED_HOUSE for s in row) else 1
            )
            row_list.append({"spaces": [board.space_ids[s] for s in row], "points": worth})
        total = sum(provinces[seat].values()) + sum(alliances[seat].values()) + roads + ports[seat]
        scores.append(total)
        breakdown.append(
            {
                "provinces": provinces[seat],
                "alliances": {str(k): v for k, v in alliances[seat].items()},
                "roads": roads,
                "road_rows": row_list,
                "ports": ports[seat],
                "total": total,
            }
        )
    pieces_left = [state.pieces_left(seat) for seat in range(n)]
    # ruling H12: score first, then pieces left in supply; still equal shares the place
    keys = [(scores[s], pieces_left[s]) for s in range(n)]
    ranks = [1 + sum(1 for other in keys if other > keys[s]) for s in range(n)]
    winners = [s for s in range(n) if ranks[s] == 1]
    return {
        "scores": scores,
        "ranks": ranks,
        "winners": winners,
        "breakdown": breakdown,
        "tiebreak": {"pieces_left": pieces_left},
        "end_reason": state.end_reason,
    }
