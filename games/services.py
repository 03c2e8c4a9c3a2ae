"""The move service: the only way a move enters a match's log, whoever sends it (REST,
GraphQL, a bot task, admin), following DESIGN.md "Writing a move": lock, check, apply
through the engine, append, and on commit wake the bots, the scoring and the subscribers.

The rest of a match's life (creating, seating, starting, aborting, scoring) is written by
``games.matches``; both share its checks and locks (``games.matches.guards``). Errors are
``games.errors`` errors with a stable ``code``; a service that raises has written nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games import errors
from games.bot_randomness import bot_key
from games.bot_turns import think_bot_move
from games.clocks.running import CLOCK_FIELDS, sync_clocks
from games.matches.follow_up import schedule_follow_up, to_act_now
from games.matches.guards import lock_match_to_play, require_user
from games.models import Match, MatchStatus, Move
from games.selectors import parse_match_id
from games.write_batch import WriteBatch
from rules import IllegalMove, get_engine

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class SubmittedMove:
    """What ``submit_move`` returns: the match after the move (creator and seats with
    users loaded, ready to show), the logged move, the engine's events, unredacted
    (``selectors.events_for`` shows them to a reader), and the engine state after the move
    (so the answer need not parse it again)."""

    match: Match
    move: Move
    events: list[dict] = field(default_factory=list)
    state: Any = None


def submit_move(
    *,
    match_id: Any,
    move: Any,
    user=None,
    bot_seat: int | None = None,
    expected_ply: int | None = None,
) -> SubmittedMove:
    """Append ``move`` to the match's log, for ``user``'s seat or for bot seat ``bot_seat``
    (exactly one of the two), following DESIGN.md "Writing a move": lock, check the seat
    owes a decision and ``expected_ply`` (if given) is the current ply, apply through the
    engine, append, and on commit enqueue bot turns / scoring and publish the update.

    Raises MalformedMove, InvalidPly, MatchNotFound, MatchNotActive, NotSeated, StalePly,
    NotYourTurn, IllegalMoveError (the engine's own code and message)."""
    if (user is None) == (bot_seat is None):
        raise ValueError("submit_move needs exactly one of user and bot_seat")
    if user is not None:
        require_user(user)
    if not isinstance(move, dict):
        raise errors.MalformedMove(details={"received": type(move).__name__})
    if expected_ply is not None and (
        isinstance(expected_ply, bool) or not isinstance(expected_ply, int) or expected_ply < 0
    ):
        raise errors.InvalidPly("expected_ply must be a whole number >= 0.")

    with transaction.atomic():
        match = lock_match_to_play(match_id)
        if match.status != MatchStatus.ACTIVE:
            raise errors.MatchNotActive(details={"status": match.status})
        seats = list(match.seats.all())
        if user is not None:
            position = next((seat.position for seat in seats if seat.user_id == user.pk), None)
            if position is None:
                raise errors.NotSeated()
        else:
            if not any(seat.position == bot_seat and seat.bot_kind for seat in seats):
                raise errors.NotSeated(f"Seat {bot_seat} is not held by a bot.")
            position = bot_seat
        engine = get_engine(match.game)
        state = engine.from_json(match.state)
        owes = position in engine.to_act(state)
        if expected_ply is not None:
            # The seat's decision has been due since ``due_ply``: in a simultaneous phase
            # other seats' secret choices since then change nothing about it, so a ply
            # the seat saw from then on is not stale (engine.decision_age; docs/api.md).
            due_ply = match.ply - (engine.decision_age(state, position) if owes else 0)
            if not due_ply <= expected_ply <= match.ply:
                raise errors.StalePly(
                    details={"expected_ply": expected_ply, "current_ply": match.ply}
                )
        if not owes:
            raise errors.NotYourTurn(details={"seat": position, "ply": match.ply})
        try:
            new_state, events = engine.apply(state, position, move)
        except IllegalMove as exc:
            raise errors.IllegalMoveError(
                exc.message, code=exc.code or "illegal_move", details=exc.details
            ) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # The contract says apply raises IllegalMove for anything malformed; if an
            # engine misses a case, the client still gets a 400, and we get the traceback.
            logger.exception("%s engine crashed on a move of seat %s", match.game, position)
            raise errors.MalformedMove("The rules engine could not read this move.") from None

        events = list(events or [])
        # The log entry, the match's snapshot and the feed event go out as one statement
        # (games.write_batch: three round trips were the largest cost after the lock).
        batch = WriteBatch()
        logged = Move(match=match, ply=match.ply, seat=position, move=move, events=events)
        batch.insert(logged)
        match.ply += 1
        match.state = engine.to_json(new_state)
        if engine.is_over(new_state):
            match.status = MatchStatus.SCORING
        match.to_act = to_act_now(match, engine, new_state)
        sync_clocks(match, new_state, seats, mover=position)
        batch.update(match, ["ply", "state", "status", "to_act", "updated_at",
                             *CLOCK_FIELDS])
        schedule_follow_up(match, new_state, seats, batch)
        batch.execute()
    return SubmittedMove(match=match, move=logged, events=events, state=new_state)


def play_bot_turn(*, match_id: Any, seat: int, ply: int) -> bool:
    """Let the bot at ``seat`` move, if the match is still at ``ply`` and the seat owes a
    decision; otherwise do nothing (a duplicated or retried task is a no-op). The bot sees
    only ``engine.view(state, seat)`` and ``engine.legal_moves(state, seat)``.
    Returns True when a move landed."""
    try:
        match = Match.objects.get(pk=parse_match_id(match_id))
    except (Match.DoesNotExist, errors.MatchNotFound):
        return False
    if match.status != MatchStatus.ACTIVE or match.ply != ply:
        return False
    seat_row = match.seats.filter(position=seat, bot_kind__isnull=False).first()
    if seat_row is None:
        return False
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    if seat not in engine.to_act(state):
        return False
    # The bot thinks without holding the lock; submit_move re-checks the ply under it.
    move = think_bot_move(
        seat_row.bot_kind,
        engine,
        engine.view(state, seat),
        engine.legal_moves(state, seat),
        seat,
        # A secret derived from the seed (games/bot_randomness.py): opponents cannot
        # replay the bot's draws to infer its hand; the seed's reveal lets anyone audit them.
        match_key=bot_key(match.seed),
        ply=ply,
    )
    try:
        submit_move(match_id=match.pk, move=move, bot_seat=seat, expected_ply=ply)
    except (errors.StalePly, errors.NotYourTurn, errors.MatchNotActive, errors.NotSeated):
        return False  # someone else moved first: this task is stale
    return True
