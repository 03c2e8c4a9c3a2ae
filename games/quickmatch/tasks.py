"""Celery tasks of quick match: pairing, after each request and on celery beat (which
also expires old requests)."""

from __future__ import annotations

from celery import shared_task

from games.quickmatch import services
from games.task_options import RETRY_OPTIONS


@shared_task(name="games.quickmatch.tasks.pair_waiting", **RETRY_OPTIONS)
def pair_waiting() -> dict:
    return services.pair_waiting()
