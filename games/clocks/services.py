"""The decisions about clocks and seats: timeouts, resignation, reclaim, a leaver's seats
(an erased account), and the admin's add-time and hand-over actions. Each decides here
(whose clock ran out, who may resign or reclaim, what a hand-over is) and asks the match
to write: the incident, the seat and the clocks are written by
``games.matches.seat_changes``, the one writer of a match's seats besides its own
services (docs/architecture.md).

Each one locks the match row first (``select_for_update``), exactly as a move does, so a
timeout and a move arriving together are serialized: whichever takes the lock first wins
and the other finds the world changed (a move after a timeout is ``not_seated``: the seat
is a bot's now; a timeout after a move finds the clock stopped or its deadline moved).
Each raises before writing anything, or writes its incident, the seat and the clocks in
one transaction and schedules the follow-up (bot turns, scoring, live update) on commit.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.clocks import errors as clock_errors
from games.dispatch import enqueue_deadline_check, eta_horizon
from games.matches import errors, seat_changes, seat_clock
from games.matches.changes import ChangeKind
from games.matches.claims import HAND_OVER_KINDS, owned_position, reclaimable_position

# The match services' own checks, shared so both apply the same rules.
from games.matches.guards import (
    check_bot_kind,
    check_position,
    lock_match,
    require_admin,
    require_user,
)
from games.matches.incidents import Incident, IncidentKind
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Seat
from games.matches.outcome import forfeit_order
from games.matches.seat_changes import record_incident
from games.matches.time_controls import (
    DEFAULT_TAKEOVER_BOT,
    FORFEIT,
    NONE,
    REALTIME,
    kind_of,
)

#: least time a returning realtime player gets back (capped at the initial time)
RECLAIM_FLOOR_SECONDS = 60
#: most an admin may add at once (a week)
MAX_ADDED_SECONDS = 7 * 86_400


# -- shared steps ---------------------------------------------------------------------------------
def _takeover_bot(match: Match) -> str:
    return match.time_control.get("takeover_bot") or DEFAULT_TAKEOVER_BOT


def _locked_active(match_id: Any) -> tuple[Match, list[Seat], list[Incident]]:
    match = lock_match(match_id)
    if match.status != MatchStatus.ACTIVE:
        raise errors.MatchNotActive(details={"status": match.status})
    return match, list(match.seats.all()), list(match.incidents.all())


# -- deadlines ----------------------------------------------------------------------------------
@transaction.atomic
def enforce_deadlines(*, match_id: Any, due: str | None = None) -> int:
    """Time out every human seat whose clock ran out: the deadline task (``due``: the
    deadline it was scheduled for) and the sweep call this. Applies the match's policy:
    the seat is taken over by its bot (the player may reclaim it) or forfeits (ranks
    last, a bot plays it out). Idempotent; returns the number of seats timed out."""
    now = timezone.now()
    if due is not None and now < datetime.fromisoformat(due):
        # Delivered early (clock skew between machines): come back when it is due.
        transaction.on_commit(lambda: enqueue_deadline_check(int(match_id),
                                                             datetime.fromisoformat(due)))
        return 0
    try:
        match = lock_match(match_id)
    except errors.MatchNotFound:
        return 0
    if match.status != MatchStatus.ACTIVE or kind_of(match.time_control) == NONE:
        return 0
    seats = list(match.seats.all())
    by_position = {seat.position: seat for seat in seats}
    timed_out = 0
    for position, each in enumerate(match.clocks):
        deadline = seat_clock.deadline(each)
        seat = by_position.get(position)
        if deadline is None or deadline > now or seat is None or seat.user_id is None:
            continue
        user_id = seat.user_id
        seat_changes.set_clock(match, position, {"remaining_ms": 0, "running_since": None})
        record_incident(match, position, IncidentKind.TIMEOUT, user_id=user_id)
        if match.time_control.get("timeout_policy") == FORFEIT:
            record_incident(match, position, IncidentKind.FORFEIT, user_id=user_id,
                            bot_kind=_takeover_bot(match))
        else:
            record_incident(match, position, IncidentKind.TAKEOVER, user_id=user_id,
                            bot_kind=_takeover_bot(match))
        seat_changes.hand_seat_to_bot(seat, _takeover_bot(match))
        timed_out += 1
    if timed_out:
        seat_changes.save_seat_change(match, seats, now)
    return timed_out


def sweep_expired_clocks() -> int:
    """The beat task, every ``CLOCK_SWEEP_INTERVAL_SECONDS``: time out the seats of every
    active match whose earliest deadline has passed (its task was lost), then send the
    deadline tasks that have come within the ETA horizon (``games.dispatch.eta_horizon``;
    a deadline further ahead got none when it was set). Returns the seats timed out."""
    now = timezone.now()
    active = Match.objects.filter(status=MatchStatus.ACTIVE)
    due = active.filter(next_deadline__lte=now).values_list("pk", flat=True)
    timed_out = sum(enforce_deadlines(match_id=pk) for pk in due)
    _arm_coming_deadlines(active, now)
    return timed_out


def _arm_coming_deadlines(active, now: datetime) -> None:
    """Send the task of each running clock whose deadline lies within the horizon but was
    beyond it until the last two sweep intervals (at most the whole horizon): when the
    horizon spans two intervals, two sweeps see each deadline and one late sweep leaves
    none unarmed (the other copy is a no-op); deadlines set within the horizon got their
    task from ``sync_clocks`` already."""
    horizon = now + eta_horizon()
    since = max(now, horizon - 2 * timedelta(seconds=settings.CLOCK_SWEEP_INTERVAL_SECONDS))
    coming = active.filter(next_deadline__gt=now, next_deadline__lte=horizon)
    for match_id, clocks in coming.values_list("pk", "clocks"):
        for each in clocks:
            deadline = seat_clock.deadline(each)
            if deadline is not None and since < deadline <= horizon:
                enqueue_deadline_check(match_id, deadline)


# -- players ------------------------------------------------------------------------------------
@transaction.atomic
def resign(*, user, match_id: Any, seat: Any = None) -> Match:
    """Resign ``user``'s seat (``seat``, if given, must be it): the seat ranks last. With
    at most one seat left standing the match ends at once (two-player games); otherwise a
    bot plays the seat out. Raises AuthenticationRequired, InvalidSeat, MatchNotFound,
    NotSeated, NotYourSeat, AlreadyResigned, MatchNotActive."""
    require_user(user)
    match = lock_match(match_id)
    if seat is not None:
        seat = check_position(match, seat)
    seats, incidents = list(match.seats.all()), list(match.incidents.all())
    position = owned_position(user.pk, seats, incidents)
    if position is None:
        raise errors.NotSeated()
    if seat is not None and seat != position:
        raise clock_errors.NotYourSeat(details={"seat": seat})
    if position in forfeit_order(incidents):
        raise clock_errors.AlreadyResigned(details={"seat": position})
    if match.status != MatchStatus.ACTIVE:
        raise errors.MatchNotActive(details={"status": match.status})
    row = next(each for each in seats if each.position == position)
    record_incident(match, position, IncidentKind.RESIGN, user_id=user.pk,
                    bot_kind=_takeover_bot(match))
    if row.user_id is not None:
        seat_changes.hand_seat_to_bot(row, _takeover_bot(match))
    seat_changes.save_seat_change(match, seats, timezone.now())
    return match


def _give_back(match: Match, seats: list[Seat], incidents: list[Incident], position: int,
               user_id: int, actor=None) -> None:
    """Return a taken-over seat to its player, with a little time if their clock is out.
    The caller has checked that ``games.matches.claims.reclaimable_position`` names it."""
    row = next(each for each in seats if each.position == position)
    seat_changes.give_seat_back(row, user_id)
    record_incident(match, position, IncidentKind.RECLAIM, user_id=user_id, actor=actor)
    time_control = match.time_control
    if kind_of(time_control) == REALTIME and match.clocks:
        floor_ms = min(max(int(time_control["increment_seconds"]), RECLAIM_FLOOR_SECONDS)
                       * 1000, seat_clock.allowance_ms(time_control))
        current = match.clocks[position]
        seat_changes.set_clock(match, position, {
            **current, "remaining_ms": max(int(current["remaining_ms"]), floor_ms)})
    seat_changes.save_seat_change(match, seats, timezone.now())


@transaction.atomic
def reclaim_seat(*, user, match_id: Any) -> Match:
    """Take back the seat a bot took over when ``user``'s clock ran out (or an admin handed
    it to a bot). Not after resigning or forfeiting. Raises AuthenticationRequired,
    MatchNotFound, MatchNotActive, AlreadySeated, NothingToReclaim."""
    require_user(user)
    match, seats, incidents = _locked_active(match_id)
    if any(seat.user_id == user.pk for seat in seats):
        raise errors.AlreadySeated()
    position = reclaimable_position(user.pk, seats, incidents)
    if position is None:
        raise clock_errors.NothingToReclaim()
    _give_back(match, seats, incidents, position, user.pk)
    return match


# -- admins -------------------------------------------------------------------------------------
@transaction.atomic
def add_time(*, user, match_id: Any, position: Any, seconds: Any) -> Match:
    """Give seat ``position`` ``seconds`` more on its clock (admins). Raises NotAllowed,
    InvalidTime, MatchNotFound, MatchNotActive, NoClock, InvalidSeat."""
    require_admin(user, _("add time"))
    if (isinstance(seconds, bool) or not isinstance(seconds, int)
            or not 0 < seconds <= MAX_ADDED_SECONDS):
        raise clock_errors.InvalidTime(
            f"seconds must be a whole number from 1 to {MAX_ADDED_SECONDS}.",
            details={"seconds": str(seconds)[:20], "max": MAX_ADDED_SECONDS})
    match, seats, _incidents = _locked_active(match_id)
    if kind_of(match.time_control) == NONE:
        raise clock_errors.NoClock()
    position = check_position(match, position)
    seat_changes.set_clock(match, position,
                           seat_clock.add_seconds(match.clocks[position], seconds))
    record_incident(match, position, IncidentKind.TIME_ADDED, actor=user, seconds=seconds)
    seat_changes.save_seat_change(match, seats, timezone.now(), kind=ChangeKind.CLOCK)
    return match


@transaction.atomic
def hand_seat_to_bot(*, user, match_id: Any, position: Any, bot_kind: str,
                     for_good: bool = False) -> Seat:
    """An admin hands seat ``position`` to a ``bot_kind`` bot: the one service that does,
    deciding under the match's lock what the hand-over is. A seat a player holds in a
    running match is taken over, recorded as a takeover so that the player (or an admin)
    can hand it back; with ``for_good``, or for an open seat, a bot's seat or a seat in a
    lobby, the bot keeps it and nothing is recorded. If the seat owes a decision now, the
    bot plays it. Raises NotAllowed, MatchNotFound, MatchOver, InvalidSeat,
    UnknownBotKind."""
    require_admin(user, _("hand a seat to a bot"))
    match = lock_match(match_id)
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    position = check_position(match, position)
    kind = check_bot_kind(bot_kind)
    return _hand_over(match, position, kind, for_good=for_good, actor=user)


@transaction.atomic
def leave_seat_for_good(*, user, match_id: Any) -> Seat | None:
    """``user`` leaves a running match for good (their account is erased:
    games/leaving): the match's takeover bot keeps their seat and plays it if it owes a
    decision now. None when the match is not running or they hold no seat in it.

    The hand-over is recorded as a ``takeover`` incident naming the player (by then their
    tombstone), at the ply it happened: without it the seat's earlier moves would read as
    the bot's in the log and the record (issue 40). Nothing can be reclaimed: an erased
    account is inactive (``hand_seat_back`` and the claims refuse it)."""
    match = lock_match(match_id)
    if match.status != MatchStatus.ACTIVE:
        return None
    row = match.seats.filter(user_id=user.pk).first()
    if row is None:
        return None
    return _hand_over(match, row.position, _takeover_bot(match), for_good=False, actor=None)


def _hand_over(match: Match, position: int, kind: str, *, for_good: bool, actor) -> Seat:
    """``hand_seat_to_bot`` once checked, the match locked and not over."""
    seats = list(match.seats.all())
    row = next((each for each in seats if each.position == position), None)
    if (not for_good and match.status == MatchStatus.ACTIVE and row is not None
            and row.user_id is not None):
        record_incident(match, position, IncidentKind.TAKEOVER, user_id=row.user_id,
                        actor=actor, bot_kind=kind)
        seat_changes.hand_seat_to_bot(row, kind)
        seat_changes.save_seat_change(match, seats, timezone.now())
        return row
    return seat_changes.keep_seat_for_bot(match, row, position, kind)


@transaction.atomic
def hand_seat_back(*, user, match_id: Any, position: Any) -> Match:
    """An admin gives a taken-over seat back to the player it was taken from (not to an
    erased or deactivated account). Raises NotAllowed, MatchNotFound, MatchNotActive,
    InvalidSeat, NothingToReclaim."""
    require_admin(user, _("hand a seat back"))
    match, seats, incidents = _locked_active(match_id)
    position = check_position(match, position)
    # The seat's player is the one its latest hand-over names; whether they may have it
    # back is the same rule as their own reclaim (games.matches.claims).
    taken = next((incident for incident in reversed(incidents) if incident.seat == position
                  and incident.kind in HAND_OVER_KINDS and incident.user_id is not None), None)
    held = any(seat.position == position and seat.user_id is not None for seat in seats)
    if taken is None or held:
        raise clock_errors.NothingToReclaim(details={"seat": position})
    if not get_user_model().objects.filter(pk=taken.user_id, is_active=True).exists():
        # an erased (or deactivated) player: the seat would wait on nobody (games/leaving)
        raise clock_errors.NothingToReclaim("That seat's player can no longer play.",
                                            details={"seat": position})
    if any(seat.user_id == taken.user_id for seat in seats):
        raise errors.AlreadySeated(_("That player holds another seat of this match."))
    if reclaimable_position(taken.user_id, seats, incidents) != position:
        raise clock_errors.NothingToReclaim(details={"seat": position})
    _give_back(match, seats, incidents, position, taken.user_id, actor=user)
    return match
