"""Every event other than a match's change reaches the fan-out through one helper,
``games.notifications.fanout.notify_after_commit`` (review finding: the reminders' path
had neither the reach check nor ``robust``): while nobody can be told, a reminder sends
no task; and a failure after the commit (its reach check, which reads the database) is
logged, never raised into the sweep that stored the reminder."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection

from games.notifications import fanout, reminders
from games.notifications.models import PushSubscription, Reminder
from tests.db_sessions import another_session
from tests.games.notifications.test_reminders import _match
from tests.games.support import queued_tasks

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _fan_outs() -> list:
    return [args for name, args in queued_tasks() if name == fanout.FAN_OUT_TASK]


def test_a_reminder_sends_no_task_while_nobody_can_be_reached(queues, settings, make_user):
    settings.REMINDER_BEFORE_DEADLINE_HOURS = 12
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 0
    with time_machine.travel(T0, tick=False) as traveller:
        match = _match(make_user(), make_user(), "turn-based-1d")
        traveller.move_to(T0 + timedelta(hours=13))
        assert reminders.send_reminders() == len(match.to_act)
    assert Reminder.objects.count() == len(match.to_act)  # stored: a sweep reminds once
    assert _fan_outs() == []


class PushSubscriptionsLocked:
    """Another session holding the push subscriptions' table in ACCESS EXCLUSIVE mode:
    the reach check ("anyone with a subscription?") cannot read it."""

    def __enter__(self):
        self.conn = another_session()
        self.conn.execute(
            f'LOCK TABLE "{PushSubscription._meta.db_table}" IN ACCESS EXCLUSIVE MODE')
        return self

    def __exit__(self, *_exc):
        self.conn.rollback()
        self.conn.close()


def test_a_failing_reach_check_after_the_commit_is_logged_not_raised(
        queues, settings, make_user, caplog):
    settings.REMINDER_BEFORE_DEADLINE_HOURS = 12
    settings.NOTIFICATION_REACH_CHECK_SECONDS = 0
    with time_machine.travel(T0, tick=False) as traveller:
        match = _match(make_user(), make_user(), "turn-based-1d")
        traveller.move_to(T0 + timedelta(hours=13))
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '200ms'")
        try:
            with PushSubscriptionsLocked(), caplog.at_level(logging.ERROR):
                # every due seat is still reminded: one failure stops no other reminder
                assert reminders.send_reminders() == len(match.to_act)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    assert Reminder.objects.count() == len(match.to_act)
    assert any("on_commit" in record.getMessage() and record.exc_info
               and "lock" in str(record.exc_info[1]).lower() for record in caplog.records)
    assert _fan_outs() == []
