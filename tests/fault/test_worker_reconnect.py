"""A worker started as deployed reconnects after a Redis restart cleanly and at once
(issue 21, item 9).

A worker started as scripts/run.sh and docker-compose.yml start it (no --without-*
option) logged ``Error on restarting Gossip: AttributeError("'NoneType' object has no
attribute 'connection_errors'")`` at every reconnection: celery 5.7 drops the consumer's
connection before the restart stops its steps, and the Gossip step then closes its channel
through kombu's ``ignore_errors(None, ...)``, whose ``except None.connection_errors``
raises. The service uses neither gossip (other workers' events, elections) nor mingle
(revoked tasks and clocks of other workers, a 1 s wait at every start and reconnection)
nor the heartbeat events only a monitor reads, so the worker runs without them
(config/celery_consumer.py); remote control (``celery inspect ping``, compose's health
check) stays."""

from __future__ import annotations

import re
import time

import pytest

from config.celery import app as celery_app
from tests.fault.conftest import report, wait_for
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = pytest.mark.django_db(transaction=True)

CONNECTED = "broker connected: sweep of waiting matches enqueued"
#: what celery's consumer logs when it notices the broker gone (celery/worker/consumer)
LOST = "Connection to broker lost"


def _connections(worker) -> int:
    return worker_log(worker, tail=200_000).count(CONNECTED)


def test_a_worker_started_as_deployed_reconnects_without_errors_or_mingling(services,
                                                                            tmp_path):
    purge_test_queue()
    worker = start_worker(tmp_path / "worker.log", "fault-reconnect", level="info")
    try:
        wait_for(lambda: _connections(worker) >= 1, 60, "the worker's first connection",
                 worker)
        services.stop_redis()
        # Waits on what happened, never a fixed pause or a short reply window: under load
        # (two cores, other suites) a 3 s pause could end before the worker noticed the
        # outage, and a 2 s control.ping once missed a worker still catching up (issue 39).
        wait_for(lambda: LOST in worker_log(worker, tail=200_000), 60,
                 "the worker noticing Redis gone", worker)
        services.start_redis()
        started = time.monotonic()
        wait_for(lambda: _connections(worker) >= 2, 120, "the worker's reconnection", worker)
        report("Redis restart -> worker consuming again", time.monotonic() - started)
        replies: list = []

        def answers_ping() -> bool:
            replies[:] = celery_app.control.ping(timeout=5.0) or []
            return any(re.match(r"fault-reconnect-\d+@", name) for reply in replies
                       for name in reply)

        try:
            wait_for(answers_ping, 90, "the worker's answer to remote control", worker)
        except AssertionError as error:
            raise AssertionError(f"remote control no longer answers: {replies}") from error

        log = worker_log(worker, tail=200_000)
        assert "Error on restarting" not in log, log[-6000:]
        assert "AttributeError" not in log, log[-6000:]
        assert "mingle: searching for neighbors" not in log, "mingle still waits 1 s"
        assert worker.poll() is None
    finally:
        stop_worker(worker)
