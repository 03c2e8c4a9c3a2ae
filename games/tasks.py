"""Celery tasks of the games app: thin wrappers that call services.

All are ``acks_late`` (a worker that dies mid-task leaves the message to be redelivered)
and retry on transient database errors; the services they call are idempotent, so a
redelivered or duplicated task is a no-op.
"""

from __future__ import annotations

import logging

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError

from games import services
from games.matches import recovery, scoring

logger = logging.getLogger(__name__)

_TRANSIENT = (OperationalError, InterfaceError)
RETRY_OPTIONS = _RETRY = {
    "acks_late": True,
    "autoretry_for": _TRANSIENT,
    # Waits of 1, 2, 4, 8, then 10 s (no jitter, so the ladder is known): eight tries span
    # a 55 s database outage; past that, the sweeps resume the match. Every wait stays below
    # the broker's visibility timeout (settings.CELERY_VISIBILITY_TIMEOUT): a retry waits
    # unacked in the worker until its countdown and must not be redelivered meanwhile.
    "retry_backoff": True,
    "retry_backoff_max": 10,
    "retry_jitter": False,
    "max_retries": 8,
}


@shared_task(
    name="games.tasks.play_bot_turn",
    # the search's own wall-clock cap ends it first; the soft limit is the backstop that
    # makes an overrunning search play its best move so far (games/bot_turns.py), the hard
    # one the last
    soft_time_limit=settings.BOT_TURN_SOFT_TIME_LIMIT,
    time_limit=settings.BOT_TURN_SOFT_TIME_LIMIT + 10,
    **{
        **_RETRY,
        # a soft limit that fires after the thinking (while the move is being stored) rolls
        # the transaction back; the turn is simply tried again (the service is idempotent)
        "autoretry_for": (*_TRANSIENT, SoftTimeLimitExceeded),
    },
)
def play_bot_turn(match_id: int, seat: int, ply: int) -> bool:
    """Let the bot at ``seat`` play if the match is still at ``ply`` (else a no-op)."""
    return services.play_bot_turn(match_id=match_id, seat=seat, ply=ply)


@shared_task(name="games.tasks.score_match", **_RETRY)
def score_match(match_id: int) -> bool:
    """Write the results of a match whose game is over (a no-op once finished)."""
    return scoring.score_match(match_id=match_id)


@shared_task(name="games.tasks.sweep_stalled_matches", **_RETRY)
def sweep_stalled_matches(idle_seconds: float = 30.0) -> dict:
    """Periodic (CELERY_BEAT_SCHEDULE): re-enqueue bot turns and scorings that were lost."""
    counts = recovery.resume_stalled_matches(idle_seconds=idle_seconds)
    if any(counts.values()):
        logger.info("sweep re-enqueued %s", counts)
    return counts


# The clocks' tasks (deadlines, sweep) live with their capability; importing them here
# registers them wherever this module is loaded (worker autodiscovery, games.dispatch).
from games.clocks import tasks as _clock_tasks  # noqa: E402,F401
from games.quickmatch import tasks as _quickmatch_tasks  # noqa: E402,F401
