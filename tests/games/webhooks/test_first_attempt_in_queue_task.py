"""One delivery for an event (a "your turn" to the one app a player uses) gets its first
attempt inside the ``queue_event`` task, not in a second task (games/webhooks/tasks.py):
at 500 matches two tasks per turn left the worker behind. Several deliveries still get a
``deliver`` task each, and a failed first attempt is retried by ``deliver``.

No worker runs here and tasks are not eager (the test settings): a ``deliver`` task would sit on the broker,
so whatever reaches the receiver was sent by the ``queue_event`` call itself."""

from __future__ import annotations

import pytest

from games.webhooks import tasks
from games.webhooks.models import Delivery
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import connect, make_app, register

pytestmark = pytest.mark.django_db


@pytest.fixture
def not_eager():
    from celery import current_app

    assert not current_app.conf.task_always_eager  # the test settings send to the broker


def _endpoint(client, app, receiver):
    created = register(client, app, receiver.url, event_types=["your_turn"])
    assert created.status_code == 201, created.content
    receiver.secret = created.json()["secret"]


def test_a_lone_delivery_is_sent_by_the_task_that_queues_it(
        not_eager, make_user, make_auth_client):
    owner, ann = make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    with running_receiver() as receiver:
        _endpoint(make_auth_client(owner), app, receiver)
        assert tasks.queue_event("your_turn", [ann.pk], {"match_id": 7, "ply": 3}) == 1
        arrivals = list(receiver.arrivals)
    assert [(a.verified, a.answered, a.payload["data"]["user_id"]) for a in arrivals] == [
        (True, 200, ann.pk)]
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts) == ("delivered", 1)


def test_a_failed_first_attempt_is_counted_and_left_to_the_deliver_task(
        not_eager, make_user, make_auth_client):
    owner, ann = make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    with running_receiver(failures=5) as receiver:
        _endpoint(make_auth_client(owner), app, receiver)
        tasks.queue_event("your_turn", [ann.pk], {"match_id": 7, "ply": 3})
        assert [a.answered for a in receiver.arrivals] == [500]
    delivery = Delivery.objects.get()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == (
        "pending", 1, 500)


def test_several_deliveries_each_wait_for_their_own_task(
        not_eager, make_user, make_auth_client):
    owner, ann, bob = make_user(), make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    connect(bob, app)
    with running_receiver() as receiver:
        _endpoint(make_auth_client(owner), app, receiver)
        assert tasks.queue_event("your_turn", [ann.pk, bob.pk], {"match_id": 7, "ply": 1}) == 2
        assert receiver.arrivals == []  # two deliver tasks on the broker, none run here
    assert sorted(Delivery.objects.values_list("status", "attempts")) == [
        ("pending", 0), ("pending", 0)]
