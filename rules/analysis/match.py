"""A finished match's decisions, one by one, as their seats saw them: the replay of the
seed and the log, handing out at each ply only the mover's view and legal moves (the
state stays here), and the key every decision's random numbers come from."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from rules.engine import Engine


@dataclass(frozen=True)
class Decision:
    #: the number of moves before this one (the log's ply)
    ply: int
    seat: int
    #: what ``seat`` could see when it chose, and what it could choose from
    view: dict
    legal_moves: list[dict]
    played: dict


def decision_key(seed: str, ply: int, seat: int) -> str:
    """The seed of one decision's analysis: the match's revealed seed, the ply and the seat
    (the analysis of a decision is the same wherever and whenever it runs)."""
    return f"analysis:{seed}:{ply}:{seat}"


def iter_decisions(engine: Engine, players: int, options: dict | None, seed: str,
                   log: Iterable[tuple[int, dict]], start: int = 0) -> Iterator[Decision]:
    """Each logged move ``(seat, move)`` from ply ``start`` on, with its seat's view and
    legal moves at that ply. The state is rebuilt from the seed and never handed out."""
    state = engine.setup(players, options, seed)
    for ply, (seat, move) in enumerate(log):
        if ply >= start:
            yield Decision(ply=ply, seat=seat, view=engine.view(state, seat),
                           legal_moves=engine.legal_moves(state, seat), played=move)
        state, _events = engine.apply(state, seat, move)
