"""Celery tasks of the analysis, on their own queue (``CELERY_ANALYSIS_QUEUE``, routed in
config/settings.py) so that bot turns, scoring and clock deadlines never wait behind one.

Unlike the match tasks these are acknowledged on receipt (``acks_late=False``): an
analysis runs for minutes, far past the broker's visibility timeout, after which Redis
would hand an unacknowledged message to a second worker. A lost analysis is recovered
from the database instead: its heartbeat stops, and the next request for it sends it
again; the task resumes after the decisions already stored (games/analysis/running.py).
"""

from __future__ import annotations

from celery import shared_task

from games.analysis import running, services
from games.task_options import RETRY_OPTIONS

OPTIONS = {**RETRY_OPTIONS, "acks_late": False}


@shared_task(name="games.analysis.tasks.analyse_match", **OPTIONS)
def analyse_match(analysis_id: int) -> str:
    """Compute or resume the analysis ``analysis_id`` (a no-op when done or held)."""
    return running.run_analysis(analysis_id)


@shared_task(name="games.analysis.tasks.analyse_rated_match", **OPTIONS)
def analyse_rated_match(match_id: int) -> bool:
    """A rated match was scored and ``ANALYSE_RATED_MATCHES`` is on: request its analysis
    (the request sends ``analyse_match``). False when it cannot have one."""
    return services.request_automatic(match_id) is not None
