"""The webhooks' Celery tasks: thin, the work is ``services``'. Sent by name
(games.dispatch)."""

from __future__ import annotations

from celery import shared_task

from games.dispatch import enqueue
from games.task_options import RETRY_OPTIONS
from games.webhooks import services


@shared_task(name="games.webhooks.tasks.queue_event", **RETRY_OPTIONS)
def queue_event(event_type: str, user_ids: list[int], data: dict) -> int:
    """An event for ``user_ids``: a delivery per subscribed endpoint and user, each sent
    by its own ``deliver`` task (one slow receiver holds up no other)."""
    ids = services.queue_event(event_type, user_ids, data)
    for delivery_id in ids:
        enqueue(services.DELIVER_TASK, delivery_id)
    return len(ids)


# The receiver's failures retry on the delivery's own back-off (services.backoff_seconds),
# bounded by WEBHOOK_MAX_ATTEMPTS counted in the database; RETRY_OPTIONS' ladder still
# cures a database outage, so Celery's own count allows for both.
@shared_task(name="games.webhooks.tasks.deliver", bind=True,
             **{**RETRY_OPTIONS, "max_retries": 50})
def deliver(self, delivery_id: int) -> None:
    wait = services.attempt(delivery_id)
    if wait is not None:
        raise self.retry(countdown=wait)
