"""Celery tasks of a match: a bot's turn, the final scoring and the sweep that resumes
stalled matches. Thin wrappers that call services; enqueued by name through
``games.dispatch``, so no service imports this module.

The names (``games.tasks.*``) are wire names kept from before the tasks moved here:
messages already queued carry them. All retry as ``games.task_options`` says; the services
they call are idempotent, so a redelivered or duplicated task is a no-op.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings

from games.matches import bot_moves, recovery, scoring
from games.task_options import RETRY_OPTIONS, TRANSIENT_ERRORS

logger = logging.getLogger(__name__)

@shared_task(
    name="games.tasks.play_bot_turn",
    # the search's own wall-clock cap ends it first; the soft limit is the backstop that
    # makes an overrunning search play its best move so far (games/matches/bot_turns.py), the hard
    # one the last
    soft_time_limit=settings.BOT_TURN_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TURN_SOFT_TIME_LIMIT + 10,
    **{
        **RETRY_OPTIONS,
        # a soft limit that fires after the thinking (while the move is being stored) rolls
        # the transaction back; the turn is simply tried again (the service is idempotent)
        "autoretry_for": (*TRANSIENT_ERRORS, SoftTimeLimitExceeded),
    },
)
def play_bot_turn(match_id: int, seat: int, ply: int) -> bool:
    """Let the bot at ``seat`` play if the match is still at ``ply`` (else a no-op)."""
    return bot_moves.play_bot_turn(match_id=match_id, seat=seat, ply=ply)


@shared_task(name="games.tasks.score_match", **RETRY_OPTIONS)
def score_match(match_id: int) -> bool:
    """Write the results of a match whose game is over (a no-op once finished); its end
    goes out to the readers as every change does (games/live/)."""
    return scoring.score_match(match_id=match_id)


@shared_task(name="games.tasks.sweep_stalled_matches", **RETRY_OPTIONS)
def sweep_stalled_matches(idle_seconds: float = 30.0) -> dict:
    """Periodic (CELERY_BEAT_SCHEDULE): re-enqueue bot turns and scorings that were lost."""
    counts = recovery.resume_stalled_matches(idle_seconds=idle_seconds)
    if any(counts.values()):
        logger.info("sweep re-enqueued %s", counts)
    return counts
