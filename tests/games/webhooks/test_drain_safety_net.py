"""Beat's periodic drain (``drain-webhook-events``, config/celery_settings.py) is the safety
net of the events' list: events whose drain task message was lost (a broker outage, a
purge) are drained by it. A real worker and a real beat process; a local receiver that
verifies every delivery with the ``standardwebhooks`` package."""

from __future__ import annotations

import time

import pytest

from games.webhooks import event_queue
from games.webhooks.models import Delivery
from infra.background_sends import wait_until_sent
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import connect, make_app, register_your_turn
from tests.workers import purge_test_queue, start_beat, start_worker, stop_worker, worker_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker,
              pytest.mark.slow]


def test_a_list_whose_drain_task_was_lost_is_drained_by_beat(
        tmp_path, make_user, make_auth_client):
    owner, ann = make_user(), make_user()
    app = make_app(owner)
    connect(ann, app)
    with running_receiver() as receiver:
        register_your_turn(make_auth_client(owner), app, receiver)
        for ply in range(3):
            event_queue.push("your_turn", [ann.pk], {"match_id": 9, "ply": ply, "seat": 0})
        # twice: the push's job on the sender thread hands it the drain task's send
        assert wait_until_sent() and wait_until_sent()
        purge_test_queue()  # the one drain task those pushes sent: lost
        assert event_queue.waiting() == 3
        worker = start_worker(tmp_path / "worker.log", "webhook-drains")
        beat = None
        try:
            time.sleep(4)  # a worker alone has nothing to run: the list waits
            assert receiver.arrivals == [] and event_queue.waiting() == 3
            beat = start_beat(tmp_path / "beat.log", tmp_path / "beat-schedule",
                              env={"WEBHOOK_DRAIN_SWEEP_SECONDS": "1"})
            try:
                arrivals = receiver.wait_for(lambda seen: len(seen) >= 3, timeout=45)
            except AssertionError:
                raise AssertionError(worker_log(worker) + worker_log(beat)) from None
        finally:
            if beat is not None:
                stop_worker(beat)
            stop_worker(worker)
    assert all(arrival.verified for arrival in arrivals)
    assert sorted(arrival.payload["data"]["ply"] for arrival in arrivals) == [0, 1, 2]
    assert len({arrival.message_id for arrival in arrivals}) == 3
    assert event_queue.waiting() == 0
    assert set(Delivery.objects.values_list("status", flat=True)) == {"delivered"}
