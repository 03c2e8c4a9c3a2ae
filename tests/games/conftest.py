"""Fixtures shared by the tests under tests/games."""

from __future__ import annotations

import pytest

from config.celery import app as celery_app
from games.live import followers
from infra.background_sends import wait_until_sent
from tests.workers import purge_test_queue


@pytest.fixture
def queues():
    """Empty test queues of the real broker, emptied again afterwards: the test reads what
    was sent with ``tests.games.support.queued_tasks``."""
    assert not celery_app.conf.task_always_eager  # tests send to the broker unless told
    purge_test_queue()
    yield
    purge_test_queue()


@pytest.fixture(autouse=True)
def _sends_and_follow_answers_end_with_the_test():
    """What a test's commits hand the sender thread goes out before the next test starts,
    and the answers "does a play socket follow match N?" (cached 30 s per process:
    games/live/followers.py) are forgotten: a flushed database hands the next test the
    same match ids, which must not hear the last one's messages nor inherit its answer."""
    yield
    wait_until_sent()
    followers._answers.clear()
