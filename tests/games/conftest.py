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


@pytest.fixture
def webhook_types_known(settings):
    """The webhooks' "which event types has anyone subscribed to" answer cached for the
    test (games/webhooks/events.py asks it once per WEBHOOK_ENDPOINTS_CHECK_SECONDS per
    process, not per change): a statement count then counts what every change costs, not
    a slow test's crossing of that period."""
    from games.mail.mailable import anyone_mailable
    from games.notifications.fanout import anyone_reachable
    from games.webhooks.events import subscribed_types

    settings.WEBHOOK_ENDPOINTS_CHECK_SECONDS = 3600
    subscribed_types()
    # the same for the players' channels: "can anyone be notified?" (games/notifications/
    # fanout.py) is asked once per NOTIFICATION_REACH_CHECK_SECONDS, not per change
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 3600
    anyone_reachable()
    # and "has anyone a confirmed mail address?" (games/mail/mailable.py), which a seated
    # player's read asks once per MAIL_LOOKS_CHECK_SECONDS before it records a look
    settings.MAIL_LOOKS_CHECK_SECONDS = 3600
    anyone_mailable.refresh()
    yield
    anyone_mailable.forget()  # later tests ask again: their rows are not this test's
