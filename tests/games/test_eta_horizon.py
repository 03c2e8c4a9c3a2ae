"""ETA tasks and the broker's visibility timeout (issue 9).

A worker holds a task sent with an ETA unacknowledged until it is due; Redis gives a
message unacknowledged for longer than the visibility timeout to another worker, one more
copy per timeout. So games.dispatch.enqueue_at never sends an ETA further ahead than half
the timeout (the deadline task re-sends itself when early): read back from real Redis."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from config.celery import app as celery_app
from games import dispatch
from tests.games.support import TEST_QUEUE
from tests.workers import purge_test_queue


def _queued_etas() -> list[datetime]:
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        raw = client.lrange(TEST_QUEUE, 0, -1)
    return [datetime.fromisoformat(json.loads(item)["headers"]["eta"]) for item in raw]


@pytest.mark.django_db
def test_a_far_deadline_is_sent_within_half_the_visibility_timeout():
    purge_test_queue()
    try:
        now = timezone.now()
        dispatch.enqueue_deadline_check(1, now + timedelta(minutes=10))
        dispatch.enqueue_deadline_check(2, now + timedelta(seconds=3))
        horizon = timedelta(seconds=settings.CELERY_VISIBILITY_TIMEOUT / 2)
        etas = sorted(_queued_etas())
        assert len(etas) == 2
        near, far = etas
        assert abs(near - (now + timedelta(seconds=3))) < timedelta(milliseconds=5)
        assert now + horizon - timedelta(seconds=5) < far <= timezone.now() + horizon
    finally:
        purge_test_queue()
