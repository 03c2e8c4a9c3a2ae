"""Keeping the seats' clocks in step with the game, inside the transaction that changes it.

``sync_clocks`` is called under the match lock by every writer that changes who owes a decision
or who holds a seat (the start, each move, a timeout, a resignation, a reclaim): each
human seat that owes a decision runs its own clock (all of them at once in Hansa's
simultaneous phases), the mover is charged, everyone else's clock is stopped. Bot seats
never run a clock: a bot is never late, and a seat taken over keeps the time it had for
its player's return. New deadlines get a Celery task at their ETA once the change commits,
when they lie within ``games.dispatch.eta_horizon`` (half the broker's visibility
timeout); the clock sweep sends the task of a later one once it comes within it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.dispatch import enqueue_deadline_check
from games.matches import seat_clock
from games.matches.models import Match, MatchStatus
from games.matches.played_rules import engine_of
from games.matches.time_controls import NONE, kind_of

#: what ``sync_clocks`` changes on the match: add them to the writer's ``update_fields``
CLOCK_FIELDS = ["clocks", "next_deadline"]


def sync_clocks(match: Match, state: Any | None, seats=None, *, mover: int | None = None,
         now: datetime | None = None) -> None:
    """Start, charge or stop each seat's clock for ``state`` (the engine state the match
    now has); ``mover`` is the seat whose move this is. Changes ``match`` in memory only:
    the caller saves it with ``CLOCK_FIELDS``."""
    time_control = match.time_control
    if kind_of(time_control) == NONE:
        return
    now = now or timezone.now()
    if seats is None:
        seats = list(match.seats.all())
    humans = {seat.position for seat in seats if seat.user_id is not None}
    owing: set[int] = set()
    if match.status == MatchStatus.ACTIVE and state is not None:
        owing = set(engine_of(match).to_act(state))
    clocks = list(match.clocks) or [seat_clock.fresh(time_control) for _ in range(match.players)]
    before = [seat_clock.deadline(each) for each in clocks]
    for position, each in enumerate(clocks):
        runs = position in owing and position in humans
        if seat_clock.running_since(each) is not None:
            if position == mover:  # the increment only if this move ends its turn (ruling C1)
                each = seat_clock.charge(each, time_control, now, turn_over=not runs)
            elif not runs:  # taken over, or the game ended: stopped, no increment
                each = seat_clock.charge(each, time_control, now, turn_over=True, increment=False)
        elif runs:
            each = seat_clock.start(each, time_control, now)
        clocks[position] = each
    match.clocks = clocks
    deadlines = [seat_clock.deadline(each) for each in clocks]
    match.next_deadline = min((due for due in deadlines if due is not None), default=None)
    new = sorted({due for due, old in zip(deadlines, before, strict=True)
                  if due is not None and due != old})
    if new:
        def schedule() -> None:
            # the id read at commit: a match being created is dealt (and its clocks
            # started) before its row is written (games/matches/services.py create_match)
            for due in new:
                enqueue_deadline_check(match.pk, due)

        transaction.on_commit(schedule, robust=True)
