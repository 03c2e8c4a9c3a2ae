"""The arithmetic of one seat's clock: pure functions over the stored JSON, no database.

A clock is ``{"remaining_ms": int, "running_since": ISO timestamp or None}``. While a
seat owes a decision its clock runs: its deadline is ``running_since + remaining_ms``.
A move charges the time since ``running_since``; the move that ends a realtime seat's turn
earns it its seconds per turn (ruling C1), capped at the initial time; a turn-based seat
starts each turn with its full days per move. Remaining time never goes below 0.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from games.matches.time_controls import DAY, REALTIME, TURN_BASED


def allowance_ms(time_control: dict) -> int:
    """A fresh clock: the initial time (realtime) or the days per move (turn-based)."""
    if time_control.get("kind") == REALTIME:
        return int(time_control["initial_seconds"]) * 1000
    if time_control.get("kind") == TURN_BASED:
        return int(time_control["days_per_move"]) * DAY * 1000
    return 0


def fresh(time_control: dict) -> dict:
    return {"remaining_ms": allowance_ms(time_control), "running_since": None}


def running_since(clock: dict) -> datetime | None:
    since = clock.get("running_since")
    return datetime.fromisoformat(since) if since else None


def remaining_ms(clock: dict, now: datetime) -> int:
    """Time left at ``now`` (a running clock counted down to then, never below 0)."""
    since = running_since(clock)
    left = int(clock["remaining_ms"])
    if since is not None:
        left -= int((now - since).total_seconds() * 1000)
    return max(left, 0)


def deadline(clock: dict) -> datetime | None:
    """When a running clock reaches 0; None when it is stopped."""
    since = running_since(clock)
    if since is None:
        return None
    return since + timedelta(milliseconds=int(clock["remaining_ms"]))


def start(clock: dict, time_control: dict, now: datetime) -> dict:
    """The seat's turn begins (a stopped clock only): turn-based clocks start afresh."""
    remaining = int(clock["remaining_ms"])
    if time_control.get("kind") == TURN_BASED:
        remaining = allowance_ms(time_control)
    return {"remaining_ms": remaining, "running_since": now.isoformat()}


def charge(clock: dict, time_control: dict, now: datetime, *, turn_over: bool,
           increment: bool = True) -> dict:
    """Charge the time since the clock started. ``turn_over``: the seat no longer owes a
    decision, so the clock stops; otherwise it keeps running from ``now`` (the seat owes
    the next decision too: a turn of several moves, or the next phase). A move that ends
    its seat's turn (``increment``) earns a realtime seat its seconds per turn, never above
    the initial time; a move inside a turn earns nothing (ruling C1: the increment is per
    turn), nor does a pause (a bot took the seat, the game ended)."""
    left = remaining_ms(clock, now)
    if not turn_over:
        return {"remaining_ms": left, "running_since": now.isoformat()}
    if increment and time_control.get("kind") == REALTIME:
        left = min(left + int(time_control["increment_seconds"]) * 1000,
                   allowance_ms(time_control))
    return {"remaining_ms": left, "running_since": None}


def add_seconds(clock: dict, seconds: int) -> dict:
    """An admin's gift: more time, running or not (no cap: the admin decides)."""
    return {**clock, "remaining_ms": int(clock["remaining_ms"]) + seconds * 1000}
