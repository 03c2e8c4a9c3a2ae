"""Webhook events travel in batches (games/webhooks/event_queue.py, batches.py): a push
per event onto a Redis list, ONE drain task for the lot, one insert of every delivery,
first attempts over keep-alive connections, endpoints in parallel. Against real Redis,
real PostgreSQL and a local receiver that verifies every delivery with the
``standardwebhooks`` package; no worker runs here (tasks go to the real broker, where the
test reads them), the drain is called in this process as the task would."""

from __future__ import annotations

import json
import socket
import time
from collections import Counter

import pytest
from django.utils import timezone

from games.webhooks import batches, event_queue, tasks
from games.webhooks.models import Delivery
from infra.background_sends import wait_until_sent
from tests.games.support import queued_tasks
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import connect, make_app, register, register_your_turn

pytestmark = pytest.mark.django_db

DRAIN = "games.webhooks.tasks.drain_events"
DELIVER = "games.webhooks.tasks.deliver"


def _app_and_its_player(make_user):
    """An app's owner, a player who connected the app, and the app."""
    owner, player = make_user(), make_user()
    app = make_app(owner)
    connect(player, app)
    return owner, player, app


def _turns(users, count: int) -> None:
    for ply in range(count):
        event_queue.push("your_turn", [users[ply % len(users)].pk],
                         {"match_id": 7, "ply": ply, "seat": 0})
    assert wait_until_sent()


def _once_each_verified(arrivals) -> Counter:
    assert all(arrival.verified and arrival.answered == 200 for arrival in arrivals)
    seen = Counter(arrival.message_id for arrival in arrivals)
    assert set(seen.values()) == {1}, seen  # none doubled
    return seen


# committed rows: the task drains on a thread of its own (infra/low_priority.py), with its
# own database connection, as in a worker
@pytest.mark.django_db(transaction=True)
def test_many_events_one_drain_task_one_delivery_each_over_few_connections(
        queues, make_user, make_auth_client):
    owner, ann, bob = make_user(), make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    connect(bob, app)
    with running_receiver(keep_alive=True) as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann, bob], 30)
        # only the push that found the list empty sent a drain task
        assert [name for name, _args in queued_tasks()] == [DRAIN]
        assert tasks.drain_events() == 30
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 30)
        connections = receiver.connections
    assert len(_once_each_verified(arrivals)) == 30
    assert sorted(arrival.payload["data"]["ply"] for arrival in arrivals) == list(range(30))
    assert Counter(arrival.payload["data"]["user_id"] for arrival in arrivals) == {
        ann.pk: 15, bob.pk: 15}
    assert connections < 30 and connections == 1, connections  # one endpoint, kept alive
    assert set(Delivery.objects.values_list("status", "attempts")) == {("delivered", 1)}
    assert Delivery.objects.count() == 30
    assert event_queue.waiting() == 0
    assert [name for name, _args in queued_tasks()] == [DRAIN]  # no deliver task needed


@pytest.mark.parametrize("crashed_after", ["insert", "attempts"])
def test_a_batch_read_again_after_a_crash_doubles_nothing(
        queues, crashed_after, make_user, make_auth_client):
    owner, ann, app = _app_and_its_player(make_user)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 5)
        raw = event_queue.redis().lrange(event_queue.EVENTS_KEY, 0, -1)
        events = [json.loads(item) for item in raw]
        # the drain died before its LTRIM: the rows made (and, in one case, attempted)
        if crashed_after == "insert":
            batches.store(events)
        else:
            batches.process(events)
        assert event_queue.waiting() == 5
        assert batches.drain() == 5  # the same batch, read again
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 5)
        time.sleep(0.3)  # a doubled send would arrive now
        arrivals = list(receiver.arrivals)
    assert len(_once_each_verified(arrivals)) == 5
    assert Delivery.objects.count() == 5
    assert set(Delivery.objects.values_list("status", "attempts")) == {("delivered", 1)}
    assert event_queue.waiting() == 0


@pytest.fixture
def dead_receiver():
    """A port that accepts connections (the kernel's backlog) and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/hooks"
    finally:
        listener.close()


def test_a_dead_receiver_costs_another_endpoint_nothing_and_the_batch_one_timeout(
        queues, settings, dead_receiver, make_user, make_auth_client):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1.0
    settings.WEBHOOK_BATCH_THREADS = 4
    owner, ann, app = _app_and_its_player(make_user)
    owner_client = make_auth_client(owner)
    dead = register(owner_client, app, dead_receiver, event_types=["your_turn"])
    assert dead.status_code == 201, dead.content
    with running_receiver() as receiver:
        register_your_turn(owner_client, app, receiver)
        _turns([ann], 3)
        started = time.monotonic()
        assert batches.drain() == 3
        took = time.monotonic() - started
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 3)
    assert len(_once_each_verified(arrivals)) == 3
    # the live endpoint was served beside the dead one, not after its timeout
    assert max(arrival.at for arrival in arrivals) - started < 1.0
    # one timeout for the batch: the dead endpoint's other two went to deliver tasks
    assert took < 1.9, took
    dead_rows = Delivery.objects.filter(endpoint_id=dead.json()["id"]).order_by("id")
    assert [(row.status, row.attempts) for row in dead_rows] == [
        ("pending", 1), ("pending", 0), ("pending", 0)]
    assert "timed out" in dead_rows[0].last_error
    delivers = sorted(args[0] for name, args in queued_tasks() if name == DELIVER)
    assert delivers == [row.pk for row in dead_rows]  # a retry and two handed over


@pytest.mark.django_db(transaction=True)
def test_eager_mode_delivers_an_invitation_inline(make_user, make_auth_client):
    from games.lobby import services as lobby
    from tests.games.support import eager_celery

    owner, ann, bob = make_user(), make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    with running_receiver() as receiver:
        created = register(make_auth_client(owner), app, receiver.url,
                           event_types=["invitation"])
        receiver.secret = created.json()["secret"]
        with eager_celery():
            lobby.create_private_match(user=bob, game="han", players=2,
                                       invite=[ann.username])
            arrivals = list(receiver.arrivals)  # no wait: it went inside the commit
    assert [(arrival.payload["type"], arrival.payload["data"]["user_id"])
            for arrival in arrivals] == [("invitation", ann.pk)]
    _once_each_verified(arrivals)
    assert event_queue.waiting() == 0


def test_a_drain_that_finds_the_lock_held_leaves_the_list_to_its_holder(
        queues, make_user, make_auth_client):
    owner, ann, app = _app_and_its_player(make_user)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 2)
        event_queue.redis().set(batches.LOCK_KEY, "another drain", px=10_000)
        assert batches.drain() == 0
        assert event_queue.waiting() == 2 and receiver.arrivals == []
        event_queue.redis().delete(batches.LOCK_KEY)  # that drain ended
        assert batches.drain() == 2
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 2)
    assert len(_once_each_verified(arrivals)) == 2
    assert event_queue.redis().get(batches.LOCK_KEY) is None  # released after draining


def test_an_event_that_cannot_be_handled_is_set_aside_and_holds_up_nothing(
        queues, make_user, make_auth_client, caplog):
    owner, ann, app = _app_and_its_player(make_user)
    client = event_queue.redis()
    client.delete(batches.DEAD_KEY)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 2)
        # between good events, one whose data is not an object (and one not even JSON):
        # the batch raises; each event is then handled on its own
        poison = json.dumps({"id": "poison", "type": "your_turn", "users": [ann.pk],
                             "data": "not an object", "at": "2026-12-05T00:00:00Z"})
        client.rpush(event_queue.EVENTS_KEY, poison, b"{not json")
        _turns([ann], 2)
        with caplog.at_level("ERROR", logger="games.webhooks.batches"):
            assert batches.drain() == 6
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 4)
    assert len(_once_each_verified(arrivals)) == 4
    assert sorted(arrival.payload["data"]["ply"] for arrival in arrivals) == [0, 0, 1, 1]
    assert event_queue.waiting() == 0
    assert client.lrange(batches.DEAD_KEY, 0, -1) == [poison.encode(), b"{not json"]
    assert sum("set aside" in record.getMessage() for record in caplog.records) == 2
    client.delete(batches.DEAD_KEY)


def test_a_slow_receiver_gets_a_timeout_s_worth_of_a_batch_and_its_other_rows_go_to_tasks(
        queues, settings, make_user, make_auth_client):
    settings.WEBHOOK_TIMEOUT_SECONDS = 1.0
    owner, ann, app = _app_and_its_player(make_user)
    with running_receiver(keep_alive=True, delay=0.4) as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 6)
        started = time.monotonic()
        assert batches.drain() == 6
        took = time.monotonic() - started
    # 0.4 s each: after three answers (1.2 s >= 1 s) the other three are handed over
    assert len(receiver.arrivals) == 3 and took < 2.5, (len(receiver.arrivals), took)
    handed = Delivery.objects.filter(attempts=0, next_attempt_at__isnull=False)
    assert handed.count() == 3
    assert sorted(args[0] for name, args in queued_tasks() if name == DELIVER) == sorted(
        handed.values_list("pk", flat=True))


def test_rows_handed_to_tasks_get_no_second_first_attempt_when_a_batch_is_read_again(
        queues, make_user, make_auth_client):
    owner, ann, app = _app_and_its_player(make_user)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 3)
        events = [json.loads(item)
                  for item in event_queue.redis().lrange(event_queue.EVENTS_KEY, 0, -1)]
        batches.store(events)
        # a drain handed them to deliver tasks, then died before its trim
        Delivery.objects.update(next_attempt_at=timezone.now())
        assert batches.drain() == 3
        time.sleep(0.3)
    assert receiver.arrivals == []  # their tasks send them, not the batch read again


def test_a_drain_whose_lock_expired_trims_nothing(queues, make_user, make_auth_client):
    owner, ann, app = _app_and_its_player(make_user)
    client = event_queue.redis()
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 3)
        client.set(batches.LOCK_KEY, "another-drain")  # ours expired; another took it
        try:
            assert batches._drain_locked(client, "ours", 30_000) == 0
            # the head stays for the drain that holds the lock (same webhook-ids)
            assert event_queue.waiting() == 3
        finally:
            client.delete(batches.LOCK_KEY)
        assert batches.drain() == 3
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 3)
        time.sleep(0.3)
        arrivals = list(receiver.arrivals)
    assert len(_once_each_verified(arrivals)) == 3


def test_a_tail_pushed_while_a_drain_works_gets_a_drain_task_of_its_own(
        queues, make_user, make_auth_client):
    """Chasing the events pushed during a batch made batches of one or two, each paying a
    batch's fixed cost; the drain leaves them to a task due after the batch wait."""
    owner, ann, app = _app_and_its_player(make_user)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        _turns([ann], 3)
        pushed_during_the_batch = []

        def push_a_tail(_arrival):
            if not pushed_during_the_batch:  # the batch's first attempt: before its LTRIM
                pushed_during_the_batch.append(True)
                for ply in range(2):
                    event_queue.push("your_turn", [ann.pk], {"match_id": 8, "ply": ply,
                                                            "seat": 0})
                assert wait_until_sent()  # in the list before the answer

        receiver.on_arrival = push_a_tail
        assert batches.drain() == 3  # the batch, not its tail
        assert event_queue.waiting() == 2
        assert wait_until_sent()
        # the first push's task, and the tail's (its pushes found the list not empty)
        assert [name for name, _args in queued_tasks()] == [DRAIN, DRAIN]
        assert batches.drain() == 2  # that task's drain
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 5)
    assert len(_once_each_verified(arrivals)) == 5
    assert sorted((a.payload["data"]["match_id"], a.payload["data"]["ply"])
                  for a in arrivals) == [(7, 0), (7, 1), (7, 2), (8, 0), (8, 1)]
    assert event_queue.waiting() == 0


def test_the_events_of_one_change_go_in_one_rpush(queues):
    """A match's start is "match started" and "your turn" at once: one round trip."""
    client = event_queue.redis()

    def rpush_calls() -> int:
        return client.info("commandstats").get("cmdstat_rpush", {}).get("calls", 0)

    before = rpush_calls()
    event_queue.push_all([("match_started", [2, 1], {"match_id": 5}),
                          ("your_turn", [1], {"match_id": 5, "ply": 0, "seat": 0})])
    assert wait_until_sent()
    assert rpush_calls() - before == 1
    listed = [json.loads(item) for item in client.lrange(event_queue.EVENTS_KEY, 0, -1)]
    assert [(event["type"], event["users"]) for event in listed] == [
        ("match_started", [1, 2]), ("your_turn", [1])]
    assert listed[0]["id"] != listed[1]["id"]
    assert [name for name, _args in queued_tasks()] == [DRAIN]  # the list was empty
