"""How every Celery task of the service is acknowledged and retried.

``acks_late``: a worker that dies mid-task leaves the message to be redelivered, so every
task is idempotent. Transient database errors (a restart, a dropped connection) retry on
a fixed ladder instead of failing the task.
"""

from __future__ import annotations

from django.db import InterfaceError, OperationalError

#: errors a retry can cure: the database was away for a moment
TRANSIENT_ERRORS = (OperationalError, InterfaceError)

RETRY_OPTIONS = {
    "acks_late": True,
    "autoretry_for": TRANSIENT_ERRORS,
    # Waits of 1, 2, 4, 8, then 10 s (no jitter, so the ladder is known): eight tries span
    # a 55 s database outage; past that, the sweeps resume the match. Every wait stays below
    # the broker's visibility timeout (settings.CELERY_VISIBILITY_TIMEOUT): a retry waits
    # unacked in the worker until its countdown and must not be redelivered meanwhile.
    "retry_backoff": True,
    "retry_backoff_max": 10,
    "retry_jitter": False,
    "max_retries": 8,
}
