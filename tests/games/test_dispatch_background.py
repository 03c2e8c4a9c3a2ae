"""Task sends go from the process's sender thread (infra/background_sends.py), against the
real broker: in the order they were made, without the caller waiting for the broker, and a
send that fails never reaches the caller."""

from __future__ import annotations

import threading
import time

from config.celery import app as celery_app
from games import dispatch
from infra.background_sends import wait_until_sent
from tests.games.support import queued_tasks


def test_sends_keep_their_order(queues):
    for ply in range(5, 25):  # bot turns share one queue: its order is the sends'
        dispatch.enqueue_bot_turn(1, ply % 3, ply)
    assert queued_tasks() == [(dispatch.BOT_TURN_TASK, [1, ply % 3, ply])
                              for ply in range(5, 25)]


def test_the_caller_does_not_wait_for_the_broker(queues, monkeypatch):
    release = threading.Event()
    original = celery_app.send_task

    def slow_broker(*args, **kwargs):
        release.wait(5)
        return original(*args, **kwargs)

    monkeypatch.setattr(celery_app, "send_task", slow_broker)
    started = time.monotonic()
    dispatch.enqueue_bot_turn(3, 0, 1)
    dispatch.enqueue_scoring(3)
    assert time.monotonic() - started < 0.5  # the broker holds each send up to 5 s
    release.set()
    assert wait_until_sent()
    assert sorted(queued_tasks()) == [(dispatch.BOT_TURN_TASK, [3, 0, 1]),
                                      (dispatch.SCORING_TASK, [3])]


def test_a_failing_send_is_logged_not_raised(queues, monkeypatch, caplog):
    def broken(*args, **kwargs):
        raise RuntimeError("the broker fell over")

    monkeypatch.setattr(celery_app, "send_task", broken)
    dispatch.enqueue_scoring(4)  # never raises
    assert wait_until_sent()
    assert "could not enqueue games.tasks.score_match" in caplog.text
    dispatch.broker_reachable()  # the failure paused sending: resume for the next tests
