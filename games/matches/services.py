"""The move service (the only way a move enters the log, whoever sends it: REST, GraphQL,
a bot task, admin) and a match's life around it (creating, taking and leaving seats,
starting, aborting).

Each follows docs/architecture.md "Writing a move": check and lock first
(``games.matches.guards``), then apply and write, then record the change
(``games.matches.follow_up``): what goes out after the commit (readers, feeds, bot turns,
scoring) is sent only for what landed. The match's rows have their writers in this
package only: this module, ``games.matches.scoring`` (results) and
``games.matches.seat_changes`` (incidents, seat hand-overs to bots and back, clocks),
which the clocks capability asks when it decides a timeout, a resignation or a hand-over.
Who may join a private match is the lobby's rule (``games.lobby.services``), asked before
``join_match``. Errors are ``games.matches.errors`` errors with a stable ``code``; a
service that raises has written nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.matches import errors, spectator_chat, time_controls
from games.matches.changes import ChangeKind
from games.matches.clock_sync import CLOCK_FIELDS, sync_clocks
from games.matches.follow_up import schedule_follow_up, to_act_now, touch
from games.matches.guards import (
    check_bot_kind,
    check_position,
    free_positions,
    lock_match,
    lock_match_to_play,
    require_user,
)
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Move, Seat
from games.matches.move_metrics import counted_moves
from games.matches.permissions import can_manage_matches
from games.matches.played_rules import engine_of
from games.matches.seeds import new_seed, seed_commitment
from games.matches.setup_checks import checked_setup
from games.matches.writes import WriteBatch
from infra import text_inputs
from infra.observability import move_phases
from infra.translation import message_of
from rules import IllegalMove

logger = logging.getLogger(__name__)


def _deal(match: Match, seats: list[Seat]) -> Any:
    """Deal the game (engine.setup) into ``match``, in memory, and make it active (or
    scoring, for a game over at once); returns the state. The caller saves the match."""
    engine = engine_of(match)
    state = engine.setup(match.players, match.options, match.seed)
    match.state = engine.to_json(state)
    match.ply = 0
    match.status = MatchStatus.SCORING if engine.is_over(state) else MatchStatus.ACTIVE
    match.to_act = to_act_now(match, engine, state)
    match.started_at = timezone.now()
    sync_clocks(match, state, seats)
    return state


def _announce_start(match: Match, state: Any, seats: list[Seat]) -> None:
    schedule_follow_up(match, state, seats, kind=ChangeKind.STARTED)


def _start_locked(match: Match, seats: list[Seat] | None = None) -> Match:
    """Deal the game and make the match active. The match row is locked.
    ``seats``: the match's seats, when the caller holds them all already."""
    if seats is None:
        seats = list(match.seats.all())
    state = _deal(match, seats)
    match.save(update_fields=["state", "ply", "status", "to_act", "started_at", "updated_at",
                              *CLOCK_FIELDS])
    _announce_start(match, state, seats)
    return match


def start_if_full(match: Match) -> None:
    """Start an open match (locked) whose seats are all taken now: one read of its seats
    answers "full?" and gives the start its seats."""
    if match.status != MatchStatus.OPEN:
        return
    seats = list(match.seats.all())
    if not free_positions(match, seats):
        _start_locked(match, seats)


# -- seats ------------------------------------------------------------------------------------
@transaction.atomic
def create_match(
    *,
    user,
    game: str,
    players: int,
    options: dict | None = None,
    bot_seats: Mapping[int, str] | None = None,
    take_seat: bool = True,
    creator_seat: int | None = None,
    seed: str | None = None,
    time_control: Any = None,
    players_read_spectator_chat: Any = None,
) -> Match:
    """Create a match of ``game`` for ``players`` seats.

    ``options`` are validated and completed by ``engine.normalize_options``. ``bot_seats``
    maps positions to bot kinds ("random", "greedy"). With ``take_seat`` the creator sits at
    ``creator_seat`` (default: the lowest position without a bot). A match whose seats are
    all taken starts at once. ``user`` None creates a system match (no creator seat).
    ``seed`` is for tests and the ``play_bots`` command only (reproducing a game); the API
    never passes it, so players cannot choose their deal.

    Raises UnknownGame (400), InvalidPlayerCount, InvalidOptions, InvalidSeat,
    UnknownBotKind, SeatTaken, MatchFull, AuthenticationRequired, and for
    ``time_control`` (a preset name or object, games/matches/time_controls.py) UnknownPreset or
    InvalidTimeControl. ``players_read_spectator_chat``: whether the players read the
    spectators' chat room while the match runs (games/matches/spectator_chat.py: a boolean,
    else InvalidRequest; left out, on: a private match's caller passes its own default).
    """
    if user is not None:
        require_user(user)
    setup = checked_setup(game, players, options)
    players = setup.players
    match = Match(game=game, options=setup.options, players=players,  # for the checks below
                  time_control=time_controls.normalize(time_control),
                  players_read_spectator_chat=spectator_chat.chosen(
                      players_read_spectator_chat, default=True))
    bots: dict[int, str] = {}
    if bot_seats is not None and not isinstance(bot_seats, Mapping):
        raise errors.InvalidSeat(_("bot_seats must map seat positions to bot kinds."))
    for position, kind in (bot_seats or {}).items():
        bots[check_position(match, position)] = check_bot_kind(kind)

    seat_for_creator = None
    if take_seat and user is not None:
        if creator_seat is None:
            free = [position for position in range(players) if position not in bots]
            if not free:
                raise errors.MatchFull(_("Every seat was given to a bot; none is left for you."))
            seat_for_creator = free[0]
        else:
            seat_for_creator = check_position(match, creator_seat)
            if seat_for_creator in bots:
                raise errors.SeatTaken(details={"position": seat_for_creator})

    match.seed = str(seed if seed is not None else new_seed())[:128]
    match.seed_commitment = seed_commitment(match.seed)
    match.rules_version = setup.rules_version
    match.created_by = user
    seats = [Seat(match=match, position=position, bot_kind=kind)
             for position, kind in bots.items()]
    if seat_for_creator is not None:
        seats.append(Seat(match=match, position=seat_for_creator, user=user))
    seats.sort(key=lambda seat: seat.position)
    # A match whose seats are all given here is dealt before its row is written, and
    # starts from these objects: one INSERT each for the match and its seats, instead of
    # writing it open, reading it and its seats back, and writing it again.
    full = not free_positions(match, seats)
    state = _deal(match, seats) if full else None
    match.save()
    Seat.objects.bulk_create(seats)
    if full:
        _announce_start(match, state, seats)
    else:
        schedule_follow_up(match, None)
    return match


@transaction.atomic
def join_match(*, user, match_id: Any, position: int | None = None) -> Seat:
    """Take an open seat (``position``, or the lowest free one). The match starts when
    its last seat is taken. Whether a private match admits ``user`` is the lobby's
    question, asked before this (``games.lobby.services.join_match``). Raises
    MatchNotFound, MatchNotOpen, AlreadySeated, MatchFull, SeatTaken, InvalidSeat,
    AuthenticationRequired."""
    require_user(user)
    match = lock_match(match_id)
    # one read of the seats answers "seated already?", "which are free?" and, once this
    # seat is taken, "full?", and gives the start its seats
    seats = list(match.seats.all())
    if any(seat.user_id == user.pk for seat in seats):
        raise errors.AlreadySeated()
    free = free_positions(match, seats)
    if match.status != MatchStatus.OPEN:
        if not free:
            raise errors.MatchFull(details={"status": match.status})
        raise errors.MatchNotOpen(details={"status": match.status})
    if position is None:
        if not free:
            raise errors.MatchFull()
        position = free[0]
    else:
        position = check_position(match, position)
        if position not in free:
            raise errors.SeatTaken(details={"position": position})
    try:
        with transaction.atomic():
            seat = Seat.objects.create(match=match, position=position, user=user)
    except IntegrityError:  # a concurrent join won the seat despite the lock (defensive)
        raise errors.SeatTaken(details={"position": position}) from None
    if len(free) == 1:  # this was the last free seat
        _start_locked(match, sorted([*seats, seat], key=lambda held: held.position))
    if match.status == MatchStatus.OPEN:
        touch(match)
        schedule_follow_up(match, None, kind=ChangeKind.SEATS)
    return seat


@transaction.atomic
def leave_match(*, user, match_id: Any) -> None:
    """Give up your seat while the match is still open. Raises MatchNotFound,
    MatchNotOpen, NotSeated, AuthenticationRequired."""
    require_user(user)
    match = lock_match(match_id)
    if match.status != MatchStatus.OPEN:
        raise errors.MatchNotOpen(details={"status": match.status})
    deleted, _ = match.seats.filter(user=user).delete()
    if not deleted:
        raise errors.NotSeated()
    touch(match)
    schedule_follow_up(match, None, kind=ChangeKind.SEATS)


# -- status -----------------------------------------------------------------------------------
@transaction.atomic
def start_match(*, user, match_id: Any, fill_with: str | None = None) -> Match:
    """Start an open match now (its creator or an admin). Open seats are refused
    (MatchNotFull) unless ``fill_with`` names a bot kind to seat in each of them.
    Raises MatchNotFound, NotAllowed, MatchNotOpen, MatchNotFull, UnknownBotKind."""
    require_user(user)
    match = lock_match(match_id)
    if match.created_by_id != user.pk and not can_manage_matches(user):
        raise errors.NotAllowed(_("Only the match's creator or an admin can start it."))
    if match.status != MatchStatus.OPEN:
        raise errors.MatchNotOpen(details={"status": match.status})
    free = free_positions(match)
    if free:
        if fill_with is None:
            raise errors.MatchNotFull(details={"open_seats": free})
        kind = check_bot_kind(fill_with)
        Seat.objects.bulk_create([Seat(match=match, position=p, bot_kind=kind) for p in free])
    return _start_locked(match)


@transaction.atomic
def abort_match(*, user, match_id: Any, reason: str = "") -> Match:
    """Stop a match that has not finished: its creator before the first move, an admin at
    any time (after that players resign: games.clocks.services). The seed and the full
    log become public, as after any end. Raises MatchNotFound, NotAllowed, MatchOver,
    InvalidRequest (a reason holding a character no text may hold, infra/text_inputs.py:
    the APIs refuse it before, the admin's action reaches this check alone)."""
    require_user(user)
    reason = str(reason or "")
    if text_inputs.find_control_characters(reason, "reason", multiline=("reason",)) is not None:
        raise errors.InvalidRequest(str(text_inputs.MULTILINE_MESSAGE),
                                    details={"field": "reason"})
    match = lock_match(match_id)
    if not can_manage_matches(user) and (match.created_by_id != user.pk or match.ply > 0):
        raise errors.NotAllowed(_("Only the match's creator before the first move, or an "
                                  "admin, can abort it; players resign instead."))
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    match.status = MatchStatus.ABORTED
    match.to_act = []
    match.abort_reason = reason[:200]
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "to_act", "abort_reason", "finished_at", "updated_at"])
    schedule_follow_up(match, None)
    return match


def rename_abort_reason(old: str, new: str) -> int:
    """Rewrite the abort reason ``old`` as ``new`` on every match that has it (the lobby's
    "rematch declined by <name>" once that account is erased: games.lobby.services).
    Returns the number of matches changed."""
    return Match.objects.filter(abort_reason=old).update(abort_reason=new)


# -- moves ---------------------------------------------------------------------------------------

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


@counted_moves
def submit_move(
    *,
    match_id: Any,
    move: Any,
    user=None,
    bot_seat: int | None = None,
    expected_ply: int | None = None,
    bot_plays_on: bool = False,
    after_lock: Callable[[], None] | None = None,
) -> SubmittedMove:
    """Append ``move`` to the match's log, for ``user``'s seat or for bot seat ``bot_seat``
    (exactly one of the two), following docs/architecture.md "Writing a move": lock, check the seat
    owes a decision and ``expected_ply`` (if given) is the current ply, apply through the
    engine, append, and record the change (games.matches.follow_up): on commit the readers
    are sent what they may see and the bot turns or the scoring are enqueued.
    ``bot_plays_on``: the bot task at ``bot_seat`` plays that seat's next decision itself
    if it owes one (games/matches/bot_moves.py), so no task is sent for it.
    ``after_lock``: called once the match is locked and read, before anything else; what
    it raises rolls the transaction back (the play socket reads its rate limit's count
    there, sent before the lock: games/play/operations.py).

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
        raise errors.InvalidPly(_("expected_ply must be a whole number >= 0."))
    with transaction.atomic():
        move_phases.mark_when_committed()  # a bench's instrument (off: nothing)
        # for a user, the lock is taken only if they hold a seat: an outsider never waits
        # on it (games/matches/guards.py)
        match = lock_match_to_play(match_id, user)
        move_phases.mark("locked_and_read")
        if after_lock is not None:
            after_lock()
        if match.status != MatchStatus.ACTIVE:
            raise errors.MatchNotActive(details={"status": match.status})
        seats = list(match.seats.all())
        if user is not None:
            position = next((seat.position for seat in seats if seat.user_id == user.pk), None)
            if position is None:
                raise errors.NotSeated()
        else:
            if not any(seat.position == bot_seat and seat.bot_kind for seat in seats):
                raise errors.NotSeated(_("Seat %(seat)s is not held by a bot.")
                                       % {"seat": bot_seat})
            position = bot_seat
        engine = engine_of(match)
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
                message_of(exc), code=exc.code or "illegal_move", details=exc.details
            ) from None
        except (TypeError, ValueError, KeyError, IndexError, AttributeError):
            # The contract says apply raises IllegalMove for anything malformed; if an
            # engine misses a case, the client still gets a 400, and we get the traceback.
            logger.exception("%s engine crashed on a move of seat %s", match.game, position)
            raise errors.MalformedMove(_("The rules engine could not read this move.")) from None

        events = list(events or [])
        # The log entry, the match's snapshot and the feed event go out as one statement
        # (games.matches.writes: three round trips were the largest cost after the lock).
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
        schedule_follow_up(match, new_state, seats, batch, move=logged,
                           bot_plays_on=bot_seat if bot_plays_on else None)
        move_phases.mark("applied")
        batch.execute()
        move_phases.mark("written")
    move_phases.mark("sent_to_readers")  # the change's after-commit receivers ran
    return SubmittedMove(match=match, move=logged, events=events, state=new_state)
