"""The result of a match: the engine's, with forfeits applied on top. The one place that
decides ranks once seats resigned or forfeited, used by scoring and by replays alike.

- Seats that resigned or forfeited rank last, whatever their score: the last to go just
  below everyone still standing, the first to go at the bottom. The others keep the
  engine's order among themselves (ties stay ties). Scores are the engine's.
- A match ends early when at most one seat is still standing (two-player games end at
  once on a resignation): its game is not over, so the scores are the running ones the
  spectator view shows, and the standing seat wins.
"""

from __future__ import annotations

from typing import Any

from rules.engine import Engine


def forfeit_order(incidents) -> list[int]:
    """Seats that resigned or forfeited, first to go first (each once)."""
    from games.matches.incidents import FORFEIT_KINDS

    order: list[int] = []
    for incident in incidents:
        if incident.kind in FORFEIT_KINDS and incident.seat not in order:
            order.append(incident.seat)
    return order


def ended_early(players: int, forfeits: list[int]) -> bool:
    return players - len(set(forfeits)) <= 1


def running_scores(engine: Engine, state: Any, players: int) -> list[int]:
    """Scores so far from the spectator view: Han's ``scores``, Hansa's per-seat
    ``profit``; 0 for an engine whose view shows neither."""
    view = engine.view(state, None)
    scores = view.get("scores") if isinstance(view, dict) else None
    if isinstance(scores, list) and len(scores) == players:
        return [int(score) for score in scores]
    seats = view.get("seats") if isinstance(view, dict) else None
    if isinstance(seats, list) and len(seats) == players:
        return [int(seat.get("profit", 0)) if isinstance(seat, dict) else 0 for seat in seats]
    return [0] * players


def apply_forfeits(result: dict, forfeits: list[int], players: int) -> dict:
    """``result`` with the ranks (and ``winners``) redone for ``forfeits``."""
    if not forfeits:
        return result
    engine_ranks = [int(rank) for rank in result["ranks"]]
    standing = [seat for seat in range(players) if seat not in forfeits]
    ranks = [0] * players
    for seat in standing:
        ranks[seat] = 1 + sum(1 for other in standing if engine_ranks[other] < engine_ranks[seat])
    for place, seat in enumerate(reversed(forfeits)):
        ranks[seat] = len(standing) + place + 1
    return {**result, "ranks": ranks, "winners": [s for s in range(players) if ranks[s] == 1],
            "forfeits": list(forfeits)}


def final_result(engine: Engine, state: Any, players: int, incidents) -> dict | None:
    """The result to store, or None while the match is still being played."""
    forfeits = forfeit_order(incidents)
    if engine.is_over(state):
        base = engine.result(state)
    elif ended_early(players, forfeits):
        scores = running_scores(engine, state, players)
        base = {
            "scores": scores,
            "ranks": [1 + sum(1 for other in scores if other > score) for score in scores],
            "breakdown": [{"ended_early": True} for _ in range(players)],
        }
    else:
        return None
    return apply_forfeits(base, forfeits, players)
