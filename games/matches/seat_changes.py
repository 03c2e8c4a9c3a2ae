"""The writes behind a seat changing hands or a clock changing: the one place the incident
log is appended to, a seat is given to a bot or back to its player, and a match is saved
after such a change (its status, seats and clocks have one writer: this package,
docs/architecture.md).

The clocks capability decides (a clock ran out, a player resigned, may reclaim, an admin
adds time or hands a seat over: ``games.clocks.services``) and asks these functions to
write. Every function here runs inside the caller's transaction with the match row
already locked (``games.matches.guards.lock_match``), and writes exactly the statements
the decision needs: nothing is read again, nothing is scheduled before
``save_seat_change`` (or ``keep_seat_for_bot``) schedules the follow-up.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from games.matches.changes import ChangeKind
from games.matches.clock_sync import CLOCK_FIELDS, sync_clocks
from games.matches.follow_up import schedule_follow_up, touch
from games.matches.incidents import Incident
from games.matches.models import Match, MatchStatus, Seat
from games.matches.outcome import ended_early, forfeit_order
from games.matches.played_rules import engine_of
from games.matches.services import start_if_full


def record_incident(match: Match, seat: int, kind: str, *, user_id=None, actor=None,
                    bot_kind: str = "", seconds: int | None = None) -> Incident:
    """Append an incident of ``kind`` on ``seat`` at the match's current ply."""
    return Incident.objects.create(match=match, ply=match.ply, seat=seat, kind=kind,
                                   user_id=user_id, actor=actor, bot_kind=bot_kind or "",
                                   seconds=seconds)


def hand_seat_to_bot(seat: Seat, bot_kind: str) -> None:
    """A ``bot_kind`` bot holds ``seat`` from now on (its player, if any, leaves it)."""
    Seat.objects.filter(pk=seat.pk).update(user=None, bot_kind=bot_kind)
    seat.user, seat.user_id, seat.bot_kind = None, None, bot_kind


def give_seat_back(seat: Seat, user_id: int) -> None:
    """The player ``user_id`` holds ``seat`` again instead of its bot."""
    Seat.objects.filter(pk=seat.pk).update(user_id=user_id, bot_kind=None)
    seat.user_id, seat.bot_kind = user_id, None


def set_clock(match: Match, position: int, clock: dict) -> None:
    """Seat ``position``'s clock is ``clock`` now (games.matches.seat_clock); in memory,
    written by the ``save_seat_change`` that follows."""
    match.clocks[position] = clock


def save_seat_change(match: Match, seats: list[Seat], now: datetime | None = None, *,
                     kind: ChangeKind = ChangeKind.SEATS) -> None:
    """Write the match after its seats or clocks changed: end it if at most one seat still
    stands (games.matches.outcome), keep the clocks in step, save, and record the change
    (``kind``: a seat that changed hands, or only a clock): the readers see it, the bots
    now owing a move play, or the scoring runs."""
    now = now or timezone.now()
    fields: list[str] = []
    incidents = list(match.incidents.all())
    if match.status == MatchStatus.ACTIVE and ended_early(match.players,
                                                          forfeit_order(incidents)):
        match.status = MatchStatus.SCORING
        match.to_act = []  # Match.to_act is empty unless active
        fields = ["status", "to_act"]
    state = engine_of(match).from_json(match.state)
    sync_clocks(match, state, seats, now=now)
    match.save(update_fields=[*set(fields), *CLOCK_FIELDS, "updated_at"])
    schedule_follow_up(match, state, seats, kind=kind)


def keep_seat_for_bot(match: Match, row: Seat | None, position: int, bot_kind: str) -> Seat:
    """A ``bot_kind`` bot keeps seat ``position`` (``row``: the seat, None when it is open),
    nothing recorded: an open match whose seats are all taken now starts, and a bot owing
    a decision plays it."""
    if row is None:
        row = Seat.objects.create(match=match, position=position, bot_kind=bot_kind)
    else:
        hand_seat_to_bot(row, bot_kind)
    if match.status == MatchStatus.OPEN:
        start_if_full(match)
        if match.status != MatchStatus.OPEN:
            return row  # the start scheduled the bot turns and the notification
    touch(match)
    state: Any = (engine_of(match).from_json(match.state)
                  if match.status == MatchStatus.ACTIVE else None)
    schedule_follow_up(match, state, kind=ChangeKind.SEATS)
    return row
