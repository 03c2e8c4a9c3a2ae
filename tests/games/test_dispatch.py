"""ETA tasks and the broker's visibility timeout (issue 9). A worker holds a task sent with
an ETA unacknowledged until it is due; Redis gives a message unacknowledged for longer than
the visibility timeout to another worker, one more copy per timeout. So no ETA lies further
ahead than one horizon, half that timeout (settings.CELERY_VISIBILITY_TIMEOUT), decided in
one place (games.dispatch.eta_horizon), and a deadline far ahead is armed a few times, not
re-sent every half timeout. A deadline within it gets its task at its exact ETA;
one further ahead gets none until the clock sweep finds it within the horizon.

The life of a deadline 49 minutes ahead is played out against real Redis: the deadline
tasks queued are read back, each is run (the task's body,
games.clocks.services.enforce_deadlines) at its ETA under time-machine, and the beat sweep
runs every CLOCK_SWEEP_INTERVAL_SECONDS of that time; every message is counted."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings

from config.celery import app as celery_app
from games import dispatch
from games.clocks import services as clock_services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match
from tests.games.support import TEST_QUEUE
from tests.workers import purge_test_queue

pytestmark = pytest.mark.django_db(transaction=True)  # the deadline tasks go out on commit

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)
TASK = "games.clocks.tasks.enforce_deadlines"


def _take_queued() -> list[tuple[datetime, list]]:
    """Pop every message of the test queue: (ETA, args) of each deadline task."""
    taken = []
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        while (raw := client.lpop(TEST_QUEUE)) is not None:
            message = json.loads(raw)
            assert message["headers"]["task"] == TASK
            taken.append((datetime.fromisoformat(message["headers"]["eta"]),
                          json.loads(_body(message))[0]))
    return taken


def _body(message) -> str:
    return base64.b64decode(message["body"]).decode()


@pytest.fixture
def queue():
    purge_test_queue()
    yield
    purge_test_queue()


def test_the_horizon_is_half_the_visibility_timeout(settings):
    settings.CELERY_VISIBILITY_TIMEOUT = 30
    assert dispatch.eta_horizon() == timedelta(seconds=15)
    settings.CELERY_VISIBILITY_TIMEOUT = 7200
    assert dispatch.eta_horizon() == timedelta(hours=1)


def test_the_sweep_comes_at_least_once_per_horizon():
    """Else a deadline could pass between two sweeps without being armed (it would then be
    enforced by the sweep after it, up to one interval late)."""
    interval = settings.CLOCK_SWEEP_INTERVAL_SECONDS
    assert settings.CELERY_BEAT_SCHEDULE["sweep-expired-clocks"]["schedule"] == interval
    assert interval <= dispatch.eta_horizon().total_seconds()


def test_a_near_deadline_is_sent_at_its_eta_and_a_far_one_is_not_sent(queue):
    now = datetime.now(UTC)
    horizon = dispatch.eta_horizon()
    dispatch.enqueue_deadline_check(1, now + horizon - timedelta(seconds=1))
    dispatch.enqueue_deadline_check(2, now + timedelta(minutes=10))
    queued = _take_queued()
    assert [(eta, args[0]) for eta, args in queued] == [
        (now + horizon - timedelta(seconds=1), 1)]


@pytest.mark.parametrize("visibility, most_messages", [(30, 2), (7200, 1)])
def test_a_deadline_49_minutes_ahead_is_armed_a_few_times(make_user, queue, settings,
                                                          visibility, most_messages):
    settings.CELERY_VISIBILITY_TIMEOUT = visibility
    sweep_every = timedelta(seconds=settings.CLOCK_SWEEP_INTERVAL_SECONDS)
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(
            user=ann, game="han", players=2, creator_seat=0,
            time_control={"kind": "realtime", "initial_seconds": 49 * 60,
                          "increment_seconds": 0})
        match_services.join_match(user=bob, match_id=match.pk)
        deadline = Match.objects.get(pk=match.pk).next_deadline
        assert deadline == T0 + timedelta(minutes=49)
        sent, pending, next_sweep = 0, [], T0 + sweep_every
        while not Incident.objects.filter(match_id=match.pk).exists():
            fresh = _take_queued()
            sent += len(fresh)
            assert sent <= 50, "the deadline task keeps sending itself again"
            pending = sorted(pending + [(eta, args) for eta, args in fresh])
            if pending and pending[0][0] <= next_sweep:
                eta, args = pending.pop(0)
                traveller.move_to(max(eta, datetime.now(UTC)))
                clock_services.enforce_deadlines(match_id=args[0], due=args[1])
            else:
                traveller.move_to(next_sweep)
                clock_services.sweep_expired_clocks()
                next_sweep += sweep_every
            assert datetime.now(UTC) < deadline + sweep_every
        timed_out_at = datetime.now(UTC)
    assert sent <= most_messages
    assert timed_out_at == deadline  # by the task at its ETA, not late by the sweep
