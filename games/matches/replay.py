"""Rebuilding a match's engine state from its seed and move log.

A match is its seed plus its log (docs/architecture.md, "The engine contract",
determinism): ``setup`` followed by ``apply`` over the logged moves gives the state after
any ply. The snapshot in ``Match.state`` is only a cache of the last one.
"""

from __future__ import annotations

from typing import Any

from games.matches.incidents import Incident
from games.matches.models import Match, Move
from games.matches.outcome import final_result
from games.matches.played_rules import engine_of


def logged_moves(match: Match, upto: int | None = None) -> list[tuple[int, dict]]:
    """``(seat, move)`` of the first ``upto`` moves (all when None), in ply order."""
    moves = Move.objects.filter(match_id=match.pk).order_by("ply")
    if upto is not None:
        moves = moves.filter(ply__lt=upto)
    return list(moves.values_list("seat", "move"))


def replay_state(match: Match, upto: int | None = None) -> Any:
    """The engine state after the first ``upto`` moves (the whole log when None).

    Raises ``IllegalMove`` only if the log does not replay (a rules change without a
    ``rules_version`` bump): that is a data error, not a client one."""
    engine = engine_of(match)
    state = engine.setup(match.players, match.options, match.seed)
    for seat, move in logged_moves(match, upto):
        state, _events = engine.apply(state, seat, move)
    return state


def replay_result(match: Match) -> dict | None:
    """The result the seed, the log and the incidents (resignations, timeouts, forfeits)
    give: what scoring stored, rebuilt from scratch; None while the match is undecided."""
    return final_result(engine_of(match), replay_state(match), match.players,
                        Incident.objects.filter(match_id=match.pk).order_by("id"))


def iter_replay(match: Match):
    """Yield ``(ply, seat_or_None, move_or_None, state)`` from ply 0 (just set up) to the
    end of the log: the admin replay page and the replay benchmark walk this."""
    engine = engine_of(match)
    state = engine.setup(match.players, match.options, match.seed)
    yield 0, None, None, state
    for ply, (seat, move) in enumerate(logged_moves(match), start=1):
        state, _events = engine.apply(state, seat, move)
        yield ply, seat, move, state
