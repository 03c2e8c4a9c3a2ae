"""The only writer of ``Result`` rows: scoring a match whose game is over.

Runs in the scoring task (games/matches/tasks.py) once a move or a resignation ended the game,
and again from the admin to rescore a match from its log. The ratings move in the same
transaction: they receive the scoring's change (``games.matches.changes``, its ``ranks``)
inside it, connected at start-up by games/apps.py, so results and ratings land together
and once without this package importing the ratings."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.matches.changes import ChangeKind
from games.matches.clock_selectors import incident_rows
from games.matches.follow_up import schedule_follow_up
from games.matches.guards import lock_match_to_play
from games.matches.models import Match, MatchStatus, Result
from games.matches.outcome import final_result
from games.matches.played_rules import engine_of
from games.matches.replay import replay_state

logger = logging.getLogger(__name__)


def score_match(*, match_id: Any, rescore: bool = False) -> bool:
    """Write the ``Result`` rows of a match whose game is over and mark it finished.
    Idempotent: a finished match is left alone, unless ``rescore`` (admin) asks to rebuild
    the state from the log and rewrite the results. Returns True when it wrote results."""
    return scored_match(match_id=match_id, rescore=rescore) is not None


@transaction.atomic
def scored_match(*, match_id: Any, rescore: bool = False) -> tuple[Match, Any] | None:
    """``score_match``, returning the finished match (its seats, their users and its
    incidents loaded) and its engine state when it wrote results, else None: what the
    finished match's frames are built from (games/live/frames.py)."""
    # the seats, their users and the incidents with the lock (two statements, one round
    # trip): the result, the ratings and the feed read them from the match's cache
    match = lock_match_to_play(match_id)
    if match.status == MatchStatus.FINISHED and not rescore:
        return None
    if match.status not in (MatchStatus.SCORING, MatchStatus.FINISHED):
        return None
    engine = engine_of(match)
    if rescore:
        state = replay_state(match)  # the log is the truth; the snapshot only a cache
        match.state = engine.to_json(state)
    else:
        state = engine.from_json(match.state)
    # The engine's result with resignations and forfeits on top (games/matches/outcome.py).
    result = final_result(engine, state, match.players, incident_rows(match))
    if result is None:
        logger.error("match %s is in %s but its game is not over", match.pk, match.status)
        return None
    Result.objects.filter(match=match).delete()
    results = [
        Result(
            match=match,
            seat=position,
            score=int(result["scores"][position]),
            rank=int(result["ranks"][position]),
            breakdown=_breakdown_of(result, position),
        )
        for position in range(match.players)
    ]
    Result.objects.bulk_create(results)
    match.status = MatchStatus.FINISHED
    match.to_act = []
    match.finished_at = match.finished_at or timezone.now()
    match.save(update_fields=["state", "status", "to_act", "finished_at", "updated_at"])
    # in this transaction: results and ratings land together, once
    # in this transaction: the ratings move with the results (a receiver of the change,
    # games.ratings.services.rate_change), both land or neither does, once
    schedule_follow_up(match, state, list(match.seats.all()), kind=ChangeKind.STATUS,
                       ranks={row.seat: row.rank for row in results})
    return match, state


def _breakdown_of(result: dict, position: int) -> Any:
    breakdown = result.get("breakdown")
    if isinstance(breakdown, list) and position < len(breakdown):
        return breakdown[position]
    if isinstance(breakdown, dict):
        return breakdown.get(str(position), breakdown.get(position, {}))
    return {}
