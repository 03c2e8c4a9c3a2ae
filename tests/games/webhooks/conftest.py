"""Every webhook test starts and ends with the events' Redis list empty and its drain
lock free (games/webhooks/event_queue.py, batches.py): the list lives in the test cache's
Redis db, shared by every test, and an event left by one test names users the next
test's database may give to others."""

from __future__ import annotations

import pytest

from games.webhooks import batches, event_queue


def _empty() -> None:
    event_queue.redis().delete(event_queue.EVENTS_KEY, batches.LOCK_KEY)


@pytest.fixture(autouse=True)
def _no_events_waiting():
    _empty()
    yield
    _empty()
