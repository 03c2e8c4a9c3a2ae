"""The notifications' Celery tasks: thin, the work is the modules'. Sent by name
(games.dispatch); ``push_event``'s name and arguments are the contract the fan-out keeps
(games/notifications/__init__.py)."""

from __future__ import annotations

from celery import shared_task

from games.notifications import fanout, push, push_sending, reminders
from games.notifications.messages import push_text
from games.task_options import RETRY_OPTIONS


@shared_task(name="games.notifications.tasks.fan_out", **RETRY_OPTIONS)
def fan_out(event_type: str, user_ids: list[int], data: dict) -> dict:
    return fanout.fan_out(event_type, user_ids, data)


@shared_task(name="games.notifications.tasks.push_event", **RETRY_OPTIONS)
def push_event(event_type: str, user_id: int, data: dict) -> list[str]:
    """``event_type`` pushed to each of ``user_id``'s browsers, in each one's language;
    the outcomes. A failed push is not retried: the next event comes soon enough."""
    if not push.enabled():
        return []
    outcomes = []
    for subscription in list(push.subscriptions_of(user_id)):
        message = push_text(event_type, data, subscription.language)
        if message is not None:
            outcomes.append(push_sending.send(subscription, message))
    return outcomes


@shared_task(name="games.notifications.tasks.send_reminders", **RETRY_OPTIONS)
def send_reminders() -> int:
    """Periodic (CELERY_BEAT_SCHEDULE): remind turn-based seats of a coming deadline."""
    return reminders.send_reminders()
