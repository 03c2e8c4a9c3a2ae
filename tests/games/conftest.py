"""Fixtures shared by the tests under tests/games."""

from __future__ import annotations

import pytest

from config.celery import app as celery_app
from tests.workers import purge_test_queue


@pytest.fixture
def queues():
    """Empty test queues of the real broker, emptied again afterwards: the test reads what
    was sent with ``tests.games.support.queued_tasks``."""
    assert not celery_app.conf.task_always_eager  # tests send to the broker unless told
    purge_test_queue()
    yield
    purge_test_queue()
