"""Reminders before a turn-based deadline: a seat whose clock runs (it owes a move) in a
``turn_based`` match is reminded REMINDER_BEFORE_DEADLINE_HOURS before its deadline,
through the fan-out as event ``reminder`` (games/notifications/fanout.py).

Once per deadline and seat: the ``Reminder`` row (unique on match, seat, deadline) is
written in the same transaction that decides to remind, so a sweep run twice, or two at
once, reminds once. A new turn is a new deadline, so it is reminded again. A lead time
longer than the turn (days_per_move) reminds as soon as the turn begins."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.matches import seat_clock
from games.matches.models import Match, MatchStatus
from games.matches.time_controls import TURN_BASED
from games.notifications import metrics
from games.notifications.fanout import notify_after_commit
from games.notifications.models import REMINDER, Reminder
from infra.timestamps import utc_iso


def lead_time() -> timedelta:
    return timedelta(hours=settings.REMINDER_BEFORE_DEADLINE_HOURS)


def due(now: datetime) -> list[tuple[Match, int, int, datetime]]:
    """``(match, seat, user id, deadline)`` of every human seat of an active turn-based
    match whose deadline lies within the lead time from ``now`` (and not past)."""
    horizon = now + lead_time()
    matches = (Match.objects.filter(status=MatchStatus.ACTIVE, time_control__kind=TURN_BASED,
                                    next_deadline__gt=now, next_deadline__lte=horizon)
               .prefetch_related("seats"))
    found = []
    for match in matches:
        users = {seat.position: seat.user_id for seat in match.seats.all()
                 if seat.user_id is not None}
        for position, clock in enumerate(match.clocks):
            deadline = seat_clock.deadline(clock)
            if position in users and deadline is not None and now < deadline <= horizon:
                found.append((match, position, users[position], deadline))
    return found


def send_reminders(now: datetime | None = None) -> int:
    """Remind every seat ``due`` that was not reminded of that deadline yet; how many."""
    now = now or timezone.now()
    sent = 0
    for match, position, user_id, deadline in due(now):
        try:
            with transaction.atomic():
                _reminder, created = Reminder.objects.get_or_create(
                    match=match, position=position, deadline=deadline)
                if created:
                    notify_after_commit(REMINDER, [user_id], {
                        "match_id": match.pk, "game": match.game, "ply": match.ply,
                        "seat": position, "deadline": utc_iso(deadline)})
        except IntegrityError:  # another sweep wrote it between the get and the create
            continue
        if created:
            metrics.REMINDERS.inc()
            sent += 1
    return sent
