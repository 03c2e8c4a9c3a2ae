"""Sending tasks while the broker (Redis) is unreachable (issue 21, item 1).

Each send used to try the broker again (three attempts, 0.2 s of waits, and a connect
timeout each against a hung Redis) on the move's own request, for every task of every
move of the outage. Now the first failure pauses this process's sends (what is skipped is
logged: the database knows what waits) until a probe every ``BROKER_PROBE_SECONDS`` gets
one sweep of the waiting matches through, so bot turns and scorings resume without waiting
for beat, and no other request waits on the dead broker."""

from __future__ import annotations

import threading
import time

import pytest
from kombu.exceptions import OperationalError

from config.celery import app as celery_app
from games import dispatch
from infra.background_sends import wait_until_sent


class FakeBroker:
    """Stands in for ``send_task``: refuses while ``down``, records what it took."""

    def __init__(self) -> None:
        self.down = True
        self.attempts: list[str] = []
        self.taken: list[tuple[str, tuple, dict]] = []
        self.sweep_taken = threading.Event()

    def send_task(self, name, args=(), kwargs=None, **options):
        self.attempts.append(name)
        if self.down:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.taken.append((name, tuple(args or ()), kwargs or {}))
        if name == dispatch.SWEEP_TASK:
            self.sweep_taken.set()


@pytest.fixture
def broker(monkeypatch):
    fake = FakeBroker()
    monkeypatch.setattr(celery_app, "send_task", fake.send_task)
    assert not celery_app.conf.task_always_eager
    dispatch.broker_reachable()
    yield fake
    fake.down = False
    dispatch.broker_reachable()


def test_an_outage_costs_one_attempt_then_sends_are_skipped(broker, monkeypatch):
    monkeypatch.setattr(dispatch, "BROKER_PROBE_SECONDS", 60.0)
    dispatch.enqueue_bot_turn(1, 0, 5)  # fails: logged, never raised
    assert wait_until_sent()
    assert broker.attempts == [dispatch.BOT_TURN_TASK]
    started = time.monotonic()
    for ply in range(6, 50):
        dispatch.enqueue_bot_turn(1, 0, ply)
        dispatch.enqueue_scoring(2)
    assert wait_until_sent()
    assert time.monotonic() - started < 0.05
    assert broker.attempts == [dispatch.BOT_TURN_TASK], "each send tried the broker again"


def test_when_the_broker_is_back_the_process_asks_for_a_sweep_by_itself(broker, monkeypatch):
    monkeypatch.setattr(dispatch, "BROKER_PROBE_SECONDS", 0.05)
    dispatch.enqueue_bot_turn(1, 0, 5)
    assert wait_until_sent()  # it failed: sending is paused
    broker.down = False
    # no other send is needed: the sweep goes out once the broker takes messages again
    assert broker.sweep_taken.wait(5), broker.attempts
    assert (dispatch.SWEEP_TASK, (), {"idle_seconds": 0}) in broker.taken
    deadline = time.monotonic() + 5
    while dispatch.sending_paused() and time.monotonic() < deadline:
        time.sleep(0.01)
    dispatch.enqueue_bot_turn(1, 0, 6)  # and sends go straight out again
    assert wait_until_sent()
    assert broker.taken[-1] == (dispatch.BOT_TURN_TASK, (1, 0, 6), {})
