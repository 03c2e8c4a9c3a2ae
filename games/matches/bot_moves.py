"""A bot seat's turn, as the worker plays it (games.matches.tasks.play_bot_turn): read the
match, let the bot think from its seat's view, and submit the move through the move
service, whose change goes out to the readers like any other (games/live/).

A turn of several moves (Han's placements, a Hansa action after another) is played in the
same task while it stays quick (``_may_play_on``): the task tells the move service that it
plays on (``submit_move(bot_plays_on=True)``), so the commit sends no task for this seat's
next decision, and the task plays it itself, from the state it has just written, instead of
a new task reading it again after a trip through the broker. Every move is still its own
transaction, checked under the match's lock, and pushed on its own. A turn the task does
not finish, however it stops, is enqueued as before.
"""

from __future__ import annotations

import time
from typing import Any

from django.conf import settings

from games import dispatch
from games.matches import errors
from games.matches.bot_randomness import bot_key
from games.matches.bot_turns import think_bot_move
from games.matches.models import MatchStatus
from games.matches.parsing import parse_match_id
from games.matches.played_rules import engine_of
from games.matches.rows import load_match
from games.matches.services import submit_move
from rules.bots.registry import longest_think_seconds


def play_bot_turn(*, match_id: Any, seat: int, ply: int) -> bool:
    """Let the bot at ``seat`` move, if the match is still at ``ply`` and the seat owes a
    decision; otherwise do nothing (a duplicated or retried task is a no-op). The bot sees
    only ``engine.view(state, seat)`` and ``engine.legal_moves(state, seat)``. It plays on
    while its turn goes on and stays quick (module docstring). Returns True when a move
    landed."""
    try:
        # the match with its seats in one prepared statement (games/matches/rows.py)
        match = load_match(parse_match_id(match_id))
    except errors.MatchNotFound:
        return False
    if match is None or match.status != MatchStatus.ACTIVE or match.ply != ply:
        return False
    engine = engine_of(match)
    state = engine.from_json(match.state)
    started = time.monotonic()
    moved = False
    #: the ply at which this seat owes its next decision, when no task was sent for it
    owed: int | None = None
    try:
        while True:
            submitted = _play_one_move(match, engine, state, seat)
            owed = None  # it returned: nothing of that move is left to send
            if submitted is None:
                return moved
            moved = True
            owed = _owed_next(submitted.match, seat)
            if owed is None or not _may_play_on(submitted.match, seat, started):
                return True  # the owed turn is enqueued below
            match = submitted.match
            state = engine.from_json(_as_read_back(match.state))
    finally:
        # a turn left unplayed (the task stops, or its next move failed and may not have
        # landed: the retry finds the ply played and does nothing) goes to the broker
        if owed is not None:
            dispatch.enqueue_bot_turn(match.pk, seat, owed)


def _owed_next(match, seat: int) -> int | None:
    """The ply at which ``seat`` owes a decision after the move just made, if it does."""
    if match.status == MatchStatus.ACTIVE and seat in match.to_act:
        return match.ply
    return None


def _as_read_back(value: Any) -> Any:
    """``value`` as PostgreSQL's ``jsonb`` gives it back: the keys of every object ordered
    by their length in bytes, then bytewise. The next move is thought from the state as a
    new task would read it, so that key order (a Hansa view can follow it) never makes
    the move depend on whether it was played in the same task."""
    if isinstance(value, dict):
        return {key: _as_read_back(value[key])
                for key in sorted(value, key=lambda key: (len(key.encode()), key.encode()))}
    if isinstance(value, list):
        return [_as_read_back(item) for item in value]
    return value


def _may_play_on(match, seat: int, started: float) -> bool:
    """Whether the task has time for the bot's next move: what it has spent so far and the
    bot's longest think fit in half the task's soft time limit, so that a slow machine or
    a slow commit still leaves the move's storage well inside it. A search level whose
    backstop alone is that long (medium, hard) plays one move per task, as before."""
    kind = next((row.bot_kind for row in match.seats.all() if row.position == seat), None)
    if kind is None:
        return False
    spent = time.monotonic() - started
    return spent + longest_think_seconds(kind) < settings.BOT_TURN_SOFT_TIME_LIMIT / 2


def _play_one_move(match, engine, state, seat: int):
    """The bot's move at the match's ply, submitted (no task is sent for this seat's next
    decision: the caller plays on or enqueues it); None if the seat is no bot's, owes no
    decision or was beaten to it."""
    ply = match.ply
    if match.status != MatchStatus.ACTIVE:
        return None
    seat_row = next((row for row in match.seats.all()
                     if row.position == seat and row.bot_kind is not None), None)
    if seat_row is None:
        return None
    if seat not in engine.to_act(state):
        return None
    # The bot thinks without holding the lock; submit_move re-checks the ply under it.
    move = think_bot_move(
        seat_row.bot_kind,
        engine,
        engine.view(state, seat),
        engine.legal_moves(state, seat),
        seat,
        # A secret derived from the seed (games/matches/bot_randomness.py): opponents cannot
        # replay the bot's draws to infer its hand; the seed's reveal lets anyone audit them.
        match_key=bot_key(match.seed),
        ply=ply,
    )
    try:
        submitted = submit_move(match_id=match.pk, move=move, bot_seat=seat,
                                expected_ply=ply, bot_plays_on=True)
    except (errors.StalePly, errors.NotYourTurn, errors.MatchNotActive, errors.NotSeated):
        return None  # someone else moved first: this task is stale
    return submitted
