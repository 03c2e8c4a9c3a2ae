"""The webhooks' Celery tasks: thin, the work is ``batches``' and ``services``'. Sent by
name (games.dispatch)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from games.task_options import RETRY_OPTIONS
from games.webhooks import batches, event_queue, overdue, services
from infra.low_priority import run_yielding


@shared_task(name="games.webhooks.tasks.drain_events", **RETRY_OPTIONS)
def drain_events() -> int:
    """Make and first-attempt the deliveries of every event waiting in the list
    (games/webhooks/batches.py). Sent by the push that found the list empty, and by beat
    every WEBHOOK_DRAIN_SWEEP_SECONDS as a safety net (one LLEN when nothing waits). On a
    thread WEBHOOK_DRAIN_NICENESS nicer than the worker's: the moves come first."""
    if not event_queue.waiting():
        return 0  # beat's drain of an empty list: one LLEN, no thread
    return run_yielding(settings.WEBHOOK_DRAIN_NICENESS, batches.drain, "webhook-drain")


@shared_task(name="games.webhooks.tasks.resend_overdue", **RETRY_OPTIONS)
def resend_overdue() -> int:
    """Beat's sweep of deliveries whose deliver task was lost (games/webhooks/overdue.py)."""
    return overdue.resend_overdue()


@shared_task(name="games.webhooks.tasks.queue_event", **RETRY_OPTIONS)
def queue_event(event_type: str, user_ids: list[int], data: dict) -> None:
    """An event sent as a task of its own before events went to the list: a message of
    that time still queued joins the list (wire names never change: games/dispatch.py)."""
    event_queue.push(event_type, user_ids, data)


# The receiver's failures retry on the delivery's own back-off (services.backoff_seconds),
# bounded by WEBHOOK_MAX_ATTEMPTS counted in the database; RETRY_OPTIONS' ladder still
# cures a database outage, so Celery's own count allows for both.
@shared_task(name="games.webhooks.tasks.deliver", bind=True,
             **{**RETRY_OPTIONS, "max_retries": 50})
def deliver(self, delivery_id: int) -> None:
    wait = services.attempt(delivery_id)
    if wait is not None:
        raise self.retry(countdown=wait)
