"""Draining the webhook events' list (event_queue.py) many events at a time: what a
``drain_events`` task does (docs/webhooks.md "How events travel").

One drain at a time holds a short Redis lock (SET NX PX; a drain that finds it held
returns: the holder takes the new events too). Per batch of up to WEBHOOK_BATCH_SIZE
events, read with LRANGE from the list's head:

1. one read of who the apps serve (``selectors.apps_serving``) for the union of the
   batch's users and one of the endpoints taking any of its types, then ONE insert of
   every delivery (``bulk_create(ignore_conflicts=True)``);
2. the first attempts of the rows read back pending and never attempted, endpoints in
   parallel (WEBHOOK_BATCH_THREADS), each endpoint's rows in turn over keep-alive
   connections (keepalive.py); after a network failure or timeout, the rest of that
   endpoint's rows go to ``deliver`` tasks, so a dead receiver costs the batch one timeout;
3. the rows written back in one statement, retries handed to ``deliver`` tasks after their
   back-off (services.backoff_seconds, WEBHOOK_MAX_ATTEMPTS), then LTRIM of the batch.

Crash-safe: each delivery's ``message_id`` (its ``webhook-id``) is derived from (event
id, endpoint id, user id), so a batch read again after a crash before its LTRIM inserts
no second row, and only rows never attempted get a first attempt here. At worst a row
attempted but not yet written back is sent once more, with the same ``webhook-id``.

A drain does not chase the tail: the events pushed while it worked (their pushes saw a
non-empty list and sent no task) are fewer than a batch at any rate it keeps up with,
and taking them at once made batches of one or two, each paying a batch's fixed cost
(four statements, the lock, a connection: 3.6 ms of CPU for a batch of one against
0.5 ms per event in a batch of twenty; bench/webhook_batch_cpu.py), which put the
worker's CPU at 1.6-1.7 ms per event at 70 events/s (bench/webhook_worker_cpu.py). So
once a drain has taken a batch, it goes on only while a full batch waits; a shorter tail
gets a drain task of its own, due WEBHOOK_BATCH_WAIT_SECONDS later, as the first event
into an empty list does (if that send fails, beat's periodic drain takes the list).
"""

from __future__ import annotations

import hashlib
import json
import logging
import uuid
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import connection
from django.utils import timezone

from games.dispatch import enqueue, enqueue_after
from games.webhooks import event_queue, selectors, services
from games.webhooks.keepalive import Connections
from games.webhooks.models import Delivery
from infra.outages import UNAVAILABLE

logger = logging.getLogger(__name__)

LOCK_KEY = "webhooks:events:drain-lock"
#: events that raised on their own (logged): kept for an operator, never retried by itself
DEAD_KEY = "webhooks:events:set-aside"

#: release the lock only if this drain still holds it (a lock that expired may be another's)
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
#: drop the batch just handled from the list's head and renew the lock for the next one,
#: only if this drain still holds it: a drain whose lock expired meanwhile (a batch that
#: outlived it) trims nothing, since the drain that took the lock read the same head
_TRIM_AND_RENEW = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('LTRIM', KEYS[2], ARGV[3], -1)
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
"""


def message_id(event_id: str, endpoint_id: int, user_id: int) -> str:
    """The delivery's ``webhook-id``: the same for the same event, endpoint and user,
    whichever drain makes it (``msg_`` and 32 hex digits, unguessable without the event
    id, which never leaves the service)."""
    digest = hashlib.sha256(f"{event_id}:{endpoint_id}:{user_id}".encode()).hexdigest()
    return f"msg_{digest[:32]}"


def drain() -> int:
    """Drain the list if no other drain does: the number of events taken."""
    client = event_queue.redis()
    taken = 0
    while waiting := client.llen(event_queue.EVENTS_KEY):
        if _a_tail(taken, waiting):
            _drain_the_tail_later()
            return taken
        token = uuid.uuid4().hex
        lock_ms = int(settings.WEBHOOK_DRAIN_LOCK_SECONDS * 1000)
        if not client.set(LOCK_KEY, token, nx=True, px=lock_ms):
            return taken  # another drain holds it: it checks the list after releasing
        try:
            taken += _drain_locked(client, token, lock_ms)
        finally:
            client.eval(_RELEASE, 1, LOCK_KEY, token)
    return taken


def _a_tail(taken: int, waiting: int) -> bool:
    """Whether ``waiting`` events, found once this drain has taken some, are a tail to
    leave to a drain task of its own rather than a batch to take now (the module doc)."""
    return bool(taken) and waiting < settings.WEBHOOK_BATCH_SIZE


def _drain_the_tail_later() -> None:
    """The events pushed while this drain worked: a drain of their own after the wait, so
    they gather into a batch (the module doc)."""
    enqueue_after(event_queue.DRAIN_TASK, settings.WEBHOOK_BATCH_WAIT_SECONDS,
                  fallback="beat's drain (WEBHOOK_DRAIN_SWEEP_SECONDS) takes the list")


def _drain_locked(client, token: str, lock_ms: int) -> int:
    taken = 0
    while raw := client.lrange(event_queue.EVENTS_KEY, 0, settings.WEBHOOK_BATCH_SIZE - 1):
        if _a_tail(taken, len(raw)):
            break  # drain() gives it a drain task of its own
        try:
            process([json.loads(item) for item in raw])
        except UNAVAILABLE:
            raise  # the database or Redis away: the task retries, the list waits for it
        except Exception:  # noqa: BLE001 - one bad event must not hold up the rest
            logger.exception("webhook batch of %s events failed: each on its own", len(raw))
            _process_one_by_one(client, raw)
        if not client.eval(_TRIM_AND_RENEW, 2, LOCK_KEY, event_queue.EVENTS_KEY, token,
                           lock_ms, len(raw)):
            break  # held too long: another drain has the list (and this batch) now
        taken += len(raw)
    return taken


def _process_one_by_one(client, raw: list[bytes]) -> None:
    """A batch that raised, again event by event (the same webhook-ids: nothing doubles):
    an event that still raises is set aside on ``DEAD_KEY`` with the error logged, so one
    event the code cannot handle never stops every app's deliveries behind it."""
    for item in raw:
        try:
            process([json.loads(item)])
        except UNAVAILABLE:
            raise
        except Exception:  # noqa: BLE001 - logged, kept for an operator
            logger.exception("webhook event set aside on %s: %r", DEAD_KEY, item[:200])
            _hand_stored_rows_to_sweep(item)
            client.rpush(DEAD_KEY, item)


def _hand_stored_rows_to_sweep(item: bytes) -> None:
    """The rows a set-aside event had stored before it raised, if any, marked due now:
    the overdue sweep (overdue.py) sends them, instead of their waiting pending forever."""
    try:
        event = json.loads(item)
        ids = [message_id(event["id"], endpoint.pk, user_id)
               for _event, endpoint, user_ids in _recipients([event]) for user_id in user_ids]
        Delivery.objects.filter(message_id__in=ids, status=Delivery.Status.PENDING,
                                next_attempt_at__isnull=True).update(
                                    next_attempt_at=timezone.now())
    except Exception:  # noqa: BLE001 - an event beyond reading has stored nothing
        logger.warning("set-aside webhook event: no rows of it handed to the sweep",
                       exc_info=True)


def process(events: list[dict]) -> list[Delivery]:
    """Make and first-attempt the deliveries of ``events`` (idempotent: see the module)."""
    fresh = store(events)
    if fresh:
        first_attempts(fresh)
    return fresh


def _recipients(events: list[dict]) -> list[tuple[dict, object, list[int]]]:
    """(event, endpoint, user ids) for each endpoint taking an event's type of an app
    serving some of its users: one read of who the apps serve for all the events' users,
    one of the endpoints taking any of their types."""
    serving = selectors.apps_serving(sorted({user for event in events
                                             for user in event["users"]}))
    if not serving:
        return []
    endpoints = selectors.endpoints_taking(serving, {event["type"] for event in events})
    found = []
    for event in events:
        users = set(event["users"])
        for endpoint in endpoints:
            served = sorted(serving.get(endpoint.app_id, set()) & users)
            if event["type"] in endpoint.event_types and served:
                found.append((event, endpoint, served))
    return found


def store(events: list[dict]) -> list[Delivery]:
    """The deliveries of ``events``, inserted once: the rows of this batch still pending,
    never attempted and not handed to a ``deliver`` task (a batch read again after a
    crash: those have their task), their endpoints loaded."""
    rows = [Delivery(endpoint=endpoint, event_type=event["type"],
                     message_id=message_id(event["id"], endpoint.pk, user_id),
                     payload={"type": event["type"], "timestamp": event["at"],
                              "data": {**event["data"], "user_id": user_id}})
            for event, endpoint, user_ids in _recipients(events) for user_id in user_ids]
    if not rows:
        return []
    inserted = _insert_new(rows)
    fresh = [row for row in rows if row.pk is not None]
    if inserted < len(rows):  # a batch read again: rows of it stored before the crash
        fresh += Delivery.objects.select_related("endpoint").filter(
            message_id__in=[row.message_id for row in rows if row.pk is None],
            status=Delivery.Status.PENDING, attempts=0, next_attempt_at__isnull=True)
    return sorted(fresh, key=lambda row: row.pk)


def _insert_new(rows: list[Delivery]) -> int:
    """ONE ``INSERT ... ON CONFLICT DO NOTHING RETURNING``: each row inserted now gets its
    id (``bulk_create(ignore_conflicts=True)`` gives none, and reading the rows back cost
    a statement and a model per row); a row whose ``message_id`` is stored already keeps
    none. The number inserted."""
    now = timezone.now()
    values = ", ".join(["(%s, %s, %s, %s::jsonb, %s, 0, '', %s)"] * len(rows))
    params = [value for row in rows for value in (
        row.endpoint_id, row.message_id, row.event_type,
        json.dumps(row.payload, separators=(",", ":")), Delivery.Status.PENDING, now)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Delivery._meta.db_table} (endpoint_id, message_id, "  # noqa: S608
            "event_type, payload, status, attempts, last_error, created) "
            f"VALUES {values} ON CONFLICT (message_id) DO NOTHING "
            "RETURNING id, message_id", params)
        ids = dict((message, pk) for pk, message in cursor.fetchall())
    for row in rows:
        row.pk = ids.get(row.message_id)
        row.created = now
    return len(ids)


def first_attempts(rows: list[Delivery]) -> None:
    """Each row's first attempt, endpoints in parallel; the rows written back in bulk."""
    by_endpoint: dict[int, list[Delivery]] = {}
    for row in rows:
        by_endpoint.setdefault(row.endpoint_id, []).append(row)
    threads = min(settings.WEBHOOK_BATCH_THREADS, len(by_endpoint))
    if threads <= 1:
        results = [_send_endpoints_rows(group) for group in by_endpoint.values()]
    else:
        with ThreadPoolExecutor(threads, thread_name_prefix="webhook-batch") as pool:
            results = list(pool.map(_send_endpoints_rows, by_endpoint.values()))
    write_back([row for tried, _left in results for row in tried])
    handed = [row.pk for _tried, left in results for row in left]
    if handed:  # their endpoint just failed on the network: tried on their own, now
        Delivery.objects.filter(pk__in=handed).update(next_attempt_at=timezone.now())
    for tried, _left in results:
        for row in tried:
            _follow_up(row)
    for pk in handed:
        enqueue(services.DELIVER_TASK, pk)


def write_back(rows: list[Delivery]) -> None:
    """The attempted rows' new state in ONE statement (UPDATE ... FROM VALUES): Django's
    bulk_update builds a CASE per field and row, milliseconds of CPU per row in a batch
    (bench/webhook_batch_cpu.py), the cost this module exists to cut."""
    if not rows:
        return
    values = ", ".join(["(%s::bigint, %s::text, %s::timestamptz, %s::int, %s::int, %s::text, "
                        "%s::int, %s::timestamptz)"] * len(rows))
    params = [value for row in rows for value in (
        row.pk, row.status, row.finished, row.attempts, row.last_status_code,
        row.last_error, row.last_latency_ms, row.next_attempt_at)]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Delivery._meta.db_table} AS d SET status = v.status, "  # noqa: S608 - our table
            "finished = v.finished, attempts = v.attempts, last_status_code = v.code, "
            "last_error = v.error, last_latency_ms = v.latency, next_attempt_at = v.next_at "
            f"FROM (VALUES {values}) AS v(id, status, finished, attempts, code, error, "
            "latency, next_at) WHERE d.id = v.id", params)


def _send_endpoints_rows(rows: list[Delivery]) -> tuple[list[Delivery], list[Delivery]]:
    """One endpoint's rows in turn over keep-alive connections (no database here: a pool
    thread): (the rows attempted, the rows left after a network failure or once the
    endpoint has taken WEBHOOK_TIMEOUT_SECONDS of this batch)."""
    connections = Connections()
    spent = 0.0
    try:
        for index, row in enumerate(rows):
            outcome = services.send_row(row, connections)
            services.record_outcome(row, outcome)
            spent += outcome.latency_seconds
            # a dead receiver, or a slow one that has had a timeout's worth of this batch:
            # its other rows go to deliver tasks, and the next batch waits for no one
            if _network_failure(outcome) or spent >= settings.WEBHOOK_TIMEOUT_SECONDS:
                return rows[:index + 1], rows[index + 1:]
        return rows, []
    finally:
        connections.close()


def _network_failure(outcome) -> bool:
    # refused (the SSRF check) costs no wait: the endpoint's other rows still go
    return not outcome.ok and outcome.status_code is None and not outcome.error.startswith(
        "refused")


def _follow_up(row: Delivery) -> None:
    if row.status == Delivery.Status.PENDING:
        enqueue_after(services.DELIVER_TASK, services.backoff_seconds(row.attempts), row.pk,
                      fallback="it stays pending: 'send again' sends it")
    elif row.status == Delivery.Status.FAILED:
        services.disable_endpoint(row.endpoint, services.give_up_reason(row))
