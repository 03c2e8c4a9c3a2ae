"""Reminders before a turn-based deadline: the seat that owes a move is reminded once per
deadline, REMINDER_BEFORE_DEADLINE_HOURS before it, whatever the number of sweeps; the
reminder reaches the player's browser (decrypted by the local push service) with the
deadline in its data; a realtime match and a seat not owing a move are not reminded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from prometheus_client import REGISTRY

from games.dispatch import enqueue
from games.matches import services as match_services
from games.matches.models import Match
from games.notifications import reminders
from games.notifications.models import Reminder
from tests.games.notifications.push_receiver import running_push_service
from tests.games.notifications.test_push import vapid_key  # noqa: F401 (fixture)
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def _match(first, second, time_control: str) -> Match:
    match = match_services.create_match(user=first, game="hansa", players=2,
                                        time_control=time_control, creator_seat=0)
    match_services.join_match(user=second, match_id=match.pk)
    return Match.objects.get(pk=match.pk)


def test_the_seat_owing_a_move_is_reminded_once_per_deadline(
        vapid_key, settings, make_user, make_auth_client):  # noqa: F811
    settings.REMINDER_BEFORE_DEADLINE_HOURS = 12
    # the counter is the process's: other tests' reminders count too
    counted = REGISTRY.get_sample_value("notification_reminders_total") or 0.0
    ann, bob = make_user(), make_user()
    with running_push_service() as ann_browser, running_push_service() as bob_browser:
        for player, browser in ((ann, ann_browser), (bob, bob_browser)):
            make_auth_client(player).post(f"{API}/me/push-subscriptions/?lang=en",
                                          browser.subscription(), format="json")
        with time_machine.travel(T0, tick=False) as traveller, eager_celery():
            match = _match(ann, bob, "turn-based-1d")
            for browser in (ann_browser, bob_browser):
                browser.arrivals.clear()  # the "your turn" pushes of the start
            seats = sorted(match.to_act)  # Hansa's seats may all owe a decision at once
            deadline = T0 + timedelta(days=1)
            traveller.move_to(deadline - timedelta(hours=13))  # not yet within 12 hours
            assert reminders.send_reminders() == 0
            traveller.move_to(deadline - timedelta(hours=11))
            assert reminders.send_reminders() == len(seats)
            assert reminders.send_reminders() == 0  # a second sweep: no second reminder
            enqueue("games.notifications.tasks.send_reminders")  # beat's task, by name
        browsers = {0: ann_browser, 1: bob_browser}  # ann created the match in seat 0
        arrivals = [arrival for seat in seats for arrival in browsers[seat].wait_for(1)]
        assert all(not browsers[seat].arrivals for seat in (0, 1) if seat not in seats)
    assert len(arrivals) == len(seats) and all(a.error == "" for a in arrivals)
    messages = sorted((a.message for a in arrivals), key=lambda m: m["data"]["seat"])
    for seat, message in zip(seats, messages, strict=True):
        assert message["type"] == "reminder" and message["title"] == "Your move is waiting"
        assert message["data"] == {"match_id": match.pk, "game": "hansa", "ply": 0,
                                   "seat": seat, "deadline": "2026-03-03T09:00:00Z"}
        assert "2026-03-03 09:00 UTC" in message["body"]
    assert sorted(Reminder.objects.values_list("position", "deadline")) == [
        (seat, deadline) for seat in seats]
    assert REGISTRY.get_sample_value("notification_reminders_total") == counted + len(seats)


def test_realtime_matches_are_not_reminded(settings, make_user):
    settings.REMINDER_BEFORE_DEADLINE_HOURS = 12
    with time_machine.travel(T0, tick=False) as traveller:
        _match(make_user(), make_user(), "realtime-10+30")
        traveller.shift(timedelta(minutes=9))
        assert reminders.send_reminders() == 0
    assert not Reminder.objects.exists()


def test_each_new_turn_is_reminded_again(settings, make_user, make_auth_client):
    """A move starts the next turn afresh (turn-based: full days per move), so its
    deadline is new, and so is its reminder."""
    from tests.games.support import play_human_turns

    settings.REMINDER_BEFORE_DEADLINE_HOURS = 12
    ann, bob = make_user(), make_user()
    with time_machine.travel(T0, tick=False) as traveller:
        match = _match(ann, bob, "turn-based-1d")
        traveller.move_to(T0 + timedelta(hours=13))
        first = reminders.send_reminders()
        assert first == len(match.to_act) and first >= 1
        traveller.move_to(T0 + timedelta(hours=14))
        clients = {0: make_auth_client(ann), 1: make_auth_client(bob)}
        for _ in range(6):  # moves until a turn begins now (a clock started at 14 hours)
            play_human_turns(clients, match.pk, max_moves=1, must_end=False)
            started = [clock["running_since"] for clock in Match.objects.get(pk=match.pk).clocks
                       if clock["running_since"]]
            if (T0 + timedelta(hours=14)).isoformat() in started:
                break
        else:
            raise AssertionError("no new turn began")
        assert reminders.send_reminders() == 0  # the new turn's deadline is a day away
        traveller.move_to(T0 + timedelta(hours=14 + 13))
        assert reminders.send_reminders() >= 1
        assert reminders.send_reminders() == 0
    deadlines = set(Reminder.objects.values_list("deadline", flat=True))
    assert T0 + timedelta(days=1, hours=14) in deadlines
