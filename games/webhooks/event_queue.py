"""The list of webhook events waiting to be made into deliveries: a Redis list that every
process appends to, drained by ``games.webhooks.tasks.drain_events`` many at a time
(games/webhooks/batches.py).

One Celery task per event cost the worker ~6.5 ms of CPU per event at load, taken from
the web processes on shared cores (docs/webhooks.md "Under load"); a process now appends
the event with one RPUSH, and only the push that finds the list empty (RPUSH answered
1) sends a drain task, due WEBHOOK_BATCH_WAIT_SECONDS later: while it waits or a drain
runs, events just join the list. Without that wait, a drain at a steady moderate rate
found one event each time: a task per event again.

An event is JSON: its type, its users, its data (ids and public facts only), the time it
happened and an id made here, at push time, from which each delivery's ``webhook-id`` is
derived (batches.py): a batch read again after a crash makes no second row.

The push goes from the process's sender thread (infra/background_sends.py): the thread
that committed never waits for Redis. Eager mode (``CELERY_TASK_ALWAYS_EAGER``: the
``play_bots`` command, some tests) pushes on the caller's thread, and the drain task then
runs inline (games/dispatch.py). A Redis that cannot be reached loses the event (logged),
as it would lose its task message.
"""

from __future__ import annotations

import json
import uuid

from celery import current_app
from django.conf import settings
from django.utils import timezone
from django_redis import get_redis_connection

from games.dispatch import enqueue_after
from infra.background_sends import send_in_background
from infra.timestamps import utc_iso

#: the list (in the cache's Redis, REDIS_URL) and the drain task's wire name
EVENTS_KEY = "webhooks:events"
DRAIN_TASK = "games.webhooks.tasks.drain_events"


def redis():
    return get_redis_connection("default")


def push(event_type: str, user_ids: list[int], data: dict) -> None:
    """Append one event for ``user_ids``; returns at once (the sender thread pushes)."""
    push_all([(event_type, user_ids, data)])


def push_all(events: list[tuple[str, list[int], dict]]) -> None:
    """Append ``(event type, user ids, data)`` events in order with ONE RPUSH (a match's
    start is "match started" and "your turn" at once); returns at once."""
    if not events:
        return
    at = utc_iso(timezone.now())
    encoded = [json.dumps({"id": uuid.uuid4().hex, "type": event_type,
                           "users": sorted(set(user_ids)), "data": data, "at": at},
                          separators=(",", ":"))
               for event_type, user_ids, data in events]
    if current_app.conf.task_always_eager:
        _push_now(encoded)
    else:
        send_in_background(lambda: _push_now(encoded))


def _push_now(events: list[str]) -> None:
    # the list was empty before these: nobody will drain it
    if redis().rpush(EVENTS_KEY, *events) == len(events):
        # due WEBHOOK_BATCH_WAIT_SECONDS from now: the events of that while join this
        # one's batch, so a drain task serves many even when they come one at a time
        enqueue_after(DRAIN_TASK, settings.WEBHOOK_BATCH_WAIT_SECONDS,
                      fallback="beat's drain (WEBHOOK_DRAIN_SWEEP_SECONDS) takes the list")


def waiting() -> int:
    """How many events wait in the list (beat's safety net asks this first)."""
    return redis().llen(EVENTS_KEY)
