"""Celery tasks of the clocks: thin wrappers around games.clocks.services.

``enforce_deadlines`` is sent with an ETA at each new deadline (games.dispatch, by name);
``sweep_expired_clocks`` runs on celery beat as the safety net for a lost task. Both are
idempotent: a deadline that moved or a seat that moved meanwhile makes them no-ops.
"""

from __future__ import annotations

import logging

from celery import shared_task

from games.clocks import services
from games.task_options import RETRY_OPTIONS

logger = logging.getLogger(__name__)


@shared_task(name="games.clocks.tasks.enforce_deadlines", **RETRY_OPTIONS)
def enforce_deadlines(match_id: int, due: str | None = None) -> int:
    """Time out the seats of ``match_id`` whose clock ran out (a no-op if none did)."""
    return services.enforce_deadlines(match_id=match_id, due=due)


@shared_task(name="games.clocks.tasks.sweep_expired_clocks", **RETRY_OPTIONS)
def sweep_expired_clocks() -> int:
    """Periodic (CELERY_BEAT_SCHEDULE): time out seats whose deadline task was lost."""
    timed_out = services.sweep_expired_clocks()
    if timed_out:
        logger.info("clock sweep timed out %s seat(s)", timed_out)
    return timed_out
