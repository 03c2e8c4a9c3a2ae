"""Helpers that build Han positions on the real boards for rule tests.

A position starts from a real ``setup`` and then has pieces, hands and the turn set by hand;
supplies are reduced by what was put on the board, so counts stay consistent.
"""

from __future__ import annotations

import json

import pytest

from rules import IllegalMove, get_engine
from rules.han.state import FORTIFIED_HOUSE, HOUSE, MARKET, HanState

ENGINE = get_engine("han")

# the rulebook's players, in seat order
ALEX, BARBARA, CHRIS, DORIS = 0, 1, 2, 3


def position(
    map_id: str = "border-disputes",
    players: int = 4,
    variant: bool = False,
    *,
    houses: dict[int, list[str]] | None = None,
    fortified: dict[str, int] | None = None,
    markets: dict[str, int] | None = None,
    emissaries: dict[str, list[int]] | None = None,
    hands: dict[int, list[str]] | None = None,
    turn: int = 0,
    seed: str = "position",
) -> HanState:
    state = ENGINE.setup(players, {"map": map_id, "variant": variant}, seed)
    board = state.board
    n = players
    for seat, spaces in (houses or {}).items():
        for sid in spaces:
            i = board.space_index[sid]
            assert state.space_kind[i] == 0, sid
            state.space_kind[i] = HOUSE
            state.space_owner[i] = seat
            state.houses[seat] -= 1
    for sid, seat in (fortified or {}).items():
        i = board.space_index[sid]
        state.space_kind[i] = FORTIFIED_HOUSE
        state.space_owner[i] = seat
        state.houses[seat] -= 1
        state.markers[seat] -= 1
    for sid, seat in (markets or {}).items():
        i = board.space_index[sid]
        state.space_kind[i] = MARKET
        state.space_owner[i] = seat
        p = board.space_provinces[i][0]
        state.market_emissaries[p * n + seat] += 1
        state.emissary_supply[seat] -= 1
        state.markers[seat] -= 1
    for pid, counts in (emissaries or {}).items():
        p = board.province_index[pid]
        for seat, count in enumerate(counts):
            state.emissaries[p * n + seat] = count
            state.emissary_supply[seat] -= count
    for seat, cards in (hands or {}).items():
        state.hands[seat] = sorted(cards, key=board.color_index.__getitem__)
    state.turn = turn
    state.refresh_counters()
    return state


def place(cards: list[str], *pieces: tuple[str, str]) -> dict:
    """``place(["red"], ("house", "wei-1"), ("emissary", "wei"))``"""
    built = []
    for kind, where in pieces:
        key = "province" if kind == "emissary" else "space"
        built.append({"kind": kind, key: where})
    return {"type": "place", "cards": list(cards), "pieces": built}


def accepted(state: HanState, seat: int, move: dict) -> tuple[HanState, list[dict]]:
    before = json.dumps(ENGINE.to_json(state), sort_keys=True)
    new, events = ENGINE.apply(state, seat, move)
    assert json.dumps(ENGINE.to_json(state), sort_keys=True) == before, "apply mutated input"
    return new, events


def refused(state: HanState, seat: int, move, code: str) -> IllegalMove:
    """The move raises IllegalMove with ``code`` and leaves the state untouched."""
    before = json.dumps(ENGINE.to_json(state), sort_keys=True)
    with pytest.raises(IllegalMove) as info:
        ENGINE.apply(state, seat, move)
    assert info.value.code == code, (info.value.code, info.value.message)
    assert info.value.message
    assert json.dumps(ENGINE.to_json(state), sort_keys=True) == before
    return info.value


def canonical(move: dict) -> tuple:
    """A placement as an order-free key: sorted cards, sorted pieces."""
    if move["type"] != "place":
        return (move["type"], json.dumps(move, sort_keys=True))
    pieces = tuple(sorted(tuple(sorted(p.items())) for p in move["pieces"]))
    return ("place", tuple(sorted(move["cards"])), pieces)


def legal_keys(state: HanState, seat: int) -> set:
    return {canonical(m) for m in ENGINE.legal_moves(state, seat)}


def is_legal(state: HanState, seat: int, move: dict) -> bool:
    return canonical(move) in legal_keys(state, seat)


def space_seat(state: HanState, sid: str) -> int:
    return state.space_owner[state.board.space_index[sid]]
