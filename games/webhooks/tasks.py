"""The webhooks' Celery tasks: thin, the work is ``services``'. Sent by name
(games.dispatch)."""

from __future__ import annotations

import logging

from celery import shared_task

from games.dispatch import enqueue, enqueue_after
from games.task_options import RETRY_OPTIONS
from games.webhooks import services

logger = logging.getLogger(__name__)


@shared_task(name="games.webhooks.tasks.queue_event", **RETRY_OPTIONS)
def queue_event(event_type: str, user_ids: list[int], data: dict) -> int:
    """An event for ``user_ids``: a delivery per subscribed endpoint and user. Several
    are each sent by their own ``deliver`` task (one slow receiver holds up no other);
    one alone (a "your turn" to the one app a player uses) gets its first attempt here,
    a task less per turn: at 500 matches two tasks per turn left the worker behind
    (docs/webhooks.md "Under load"), and a retry is a ``deliver`` task as ever."""
    rows = services.queue_event(event_type, user_ids, data)
    if len(rows) == 1:
        (row,) = rows
        try:
            wait = services.attempt_row(row)
        except Exception:  # noqa: BLE001 - the row is committed: this task's own retry
            # would queue the event twice; the deliver task, with its retries, takes over
            logger.exception("webhook delivery %s: first attempt failed", row.pk)
            enqueue(services.DELIVER_TASK, row.pk)
            return 1
        if wait is not None:
            enqueue_after(services.DELIVER_TASK, wait, row.pk,
                          fallback="it stays pending: 'send again' sends it")
        return 1
    for row in rows:
        enqueue(services.DELIVER_TASK, row.pk)
    return len(rows)


# The receiver's failures retry on the delivery's own back-off (services.backoff_seconds),
# bounded by WEBHOOK_MAX_ATTEMPTS counted in the database; RETRY_OPTIONS' ladder still
# cures a database outage, so Celery's own count allows for both.
@shared_task(name="games.webhooks.tasks.deliver", bind=True,
             **{**RETRY_OPTIONS, "max_retries": 50})
def deliver(self, delivery_id: int) -> None:
    wait = services.attempt(delivery_id)
    if wait is not None:
        raise self.retry(countdown=wait)
