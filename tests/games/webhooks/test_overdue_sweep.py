"""Deliveries whose ``deliver`` task was lost (a broker outage) are sent again by beat's
sweep (games/webhooks/overdue.py): a pending row overdue by more than
WEBHOOK_OVERDUE_MARGIN_SECONDS gets a new task, once per margin; rows due later, or
finished, get none. The tasks go to the real broker, where the test reads them; the one
sent is then run as a worker would, and the local receiver verifies the delivery."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.webhooks import services, tasks
from games.webhooks.models import Delivery, Endpoint
from tests.games.support import queued_tasks
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import make_app, register

pytestmark = pytest.mark.django_db

DELIVER = "games.webhooks.tasks.deliver"


def _row(endpoint, name: str, **fields) -> Delivery:
    return Delivery.objects.create(
        endpoint=endpoint, event_type="your_turn", message_id=f"msg_{name:0>32}",
        payload={"type": "your_turn", "timestamp": "2026-12-05T06:00:00Z",
                 "data": {"match_id": 1, "ply": 1, "user_id": 1}}, **fields)


def test_a_delivery_whose_task_was_lost_is_sent_again_once_per_margin(
        queues, settings, make_user, make_auth_client):
    settings.WEBHOOK_OVERDUE_MARGIN_SECONDS = 60
    owner = make_user()
    app = make_app(owner)
    now = timezone.now()
    with running_receiver() as receiver:
        created = register(make_auth_client(owner), app, receiver.url)
        receiver.secret = created.json()["secret"]
        endpoint = Endpoint.objects.get(pk=created.json()["id"])
        lost = _row(endpoint, "a", attempts=1, next_attempt_at=now - timedelta(seconds=90))
        # late, but within the margin: its task may still come
        _row(endpoint, "b", attempts=1, next_attempt_at=now - timedelta(seconds=30))
        _row(endpoint, "c", status="delivered", attempts=1,
             next_attempt_at=now - timedelta(seconds=90))  # finished: nothing owed
        _row(endpoint, "d")  # never handed to a task (a drain's batch owns it)

        assert tasks.resend_overdue() == 1
        assert tasks.resend_overdue() == 0  # marked due now: not sent again within the margin
        assert queued_tasks() == [(DELIVER, [lost.pk])]

        tasks.deliver(lost.pk)  # the task the sweep sent, run as a worker would
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 1)
    assert [(a.message_id, a.verified, a.answered) for a in arrivals] == [
        (lost.message_id, True, 200)]
    lost.refresh_from_db()
    assert (lost.status, lost.attempts, lost.next_attempt_at) == ("delivered", 2, None)


def test_a_failed_attempt_marks_when_its_retry_is_due(settings, make_user, make_auth_client):
    owner = make_user()
    app = make_app(owner)
    with running_receiver(failures=5) as receiver:
        created = register(make_auth_client(owner), app, receiver.url)
        receiver.secret = created.json()["secret"]
        row = _row(Endpoint.objects.get(pk=created.json()["id"]), "e")
        before = timezone.now()
        wait = services.attempt(row.pk)
    row.refresh_from_db()
    assert row.status == "pending" and wait == services.backoff_seconds(1)
    assert before + timedelta(seconds=wait) <= row.next_attempt_at <= (
        timezone.now() + timedelta(seconds=wait))
