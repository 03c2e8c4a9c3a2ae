"""The only writers of a match's seats and status outside its moves: creating a match,
taking and leaving seats, starting, aborting, and an admin handing a seat to a bot.

Moves enter the log through ``games.services.submit_move`` (the move service), results
through ``games.matches.scoring``. Each function here checks and locks first
(``games.matches.guards``), then writes, then schedules the follow-up (bot turns,
scoring, feeds, live update) with ``transaction.on_commit`` so nothing is announced that
did not land. Errors are ``games.errors`` errors with a stable ``code``; a service that
raises has written nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import errors
from games.clocks import presets as clock_presets
from games.clocks.running import CLOCK_FIELDS, sync_clocks
from games.feed import services as feed
from games.lobby.models import PrivateMatch
from games.matches.follow_up import schedule_follow_up, to_act_now, touch
from games.matches.guards import (
    check_bot_kind,
    check_position,
    free_positions,
    lock_match,
    require_admin,
    require_user,
)
from games.matches.seeds import new_seed, seed_commitment
from games.matches.setup_checks import checked_setup
from games.models import ENDED_STATUSES, Match, MatchStatus, Seat
from games.permissions import can_manage_matches
from rules import get_engine


def _start_locked(match: Match) -> Match:
    """Deal the game (engine.setup) and make the match active. The match row is locked."""
    engine = get_engine(match.game)
    state = engine.setup(match.players, match.options, match.seed)
    match.state = engine.to_json(state)
    match.ply = 0
    match.status = MatchStatus.SCORING if engine.is_over(state) else MatchStatus.ACTIVE
    match.to_act = to_act_now(match, engine, state)
    match.started_at = timezone.now()
    sync_clocks(match, state)
    match.save(update_fields=["state", "ply", "status", "to_act", "started_at", "updated_at",
                              *CLOCK_FIELDS])
    seats = list(match.seats.all())
    feed.announce_started(match, seats)
    schedule_follow_up(match, state, seats)
    return match


def _start_if_full(match: Match) -> None:
    if match.status == MatchStatus.OPEN and not free_positions(match):
        _start_locked(match)


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
    ``time_control`` (a preset name or object, games/clocks/presets.py) UnknownPreset or
    InvalidTimeControl.
    """
    if user is not None:
        require_user(user)
    setup = checked_setup(game, players, options)
    players = setup.players
    match = Match(game=game, options=setup.options, players=players,  # for the checks below
                  time_control=clock_presets.normalize(time_control))
    bots: dict[int, str] = {}
    if bot_seats is not None and not isinstance(bot_seats, Mapping):
        raise errors.InvalidSeat("bot_seats must map seat positions to bot kinds.")
    for position, kind in (bot_seats or {}).items():
        bots[check_position(match, position)] = check_bot_kind(kind)

    seat_for_creator = None
    if take_seat and user is not None:
        if creator_seat is None:
            free = [position for position in range(players) if position not in bots]
            if not free:
                raise errors.MatchFull("Every seat was given to a bot; none is left for you.")
            seat_for_creator = free[0]
        else:
            seat_for_creator = check_position(match, creator_seat)
            if seat_for_creator in bots:
                raise errors.SeatTaken(details={"position": seat_for_creator})

    match.seed = str(seed if seed is not None else new_seed())[:128]
    match.seed_commitment = seed_commitment(match.seed)
    match.rules_version = setup.rules_version
    match.created_by = user
    match.save()
    Seat.objects.bulk_create(
        [Seat(match=match, position=position, bot_kind=kind) for position, kind in bots.items()]
    )
    if seat_for_creator is not None:
        Seat.objects.create(match=match, position=seat_for_creator, user=user)
    match = Match.objects.select_for_update().get(pk=match.pk)
    _start_if_full(match)
    if match.status == MatchStatus.OPEN:
        schedule_follow_up(match, None)
    return match


@transaction.atomic
def join_match(*, user, match_id: Any, position: int | None = None,
               admitted: bool = False) -> Seat:
    """Take an open seat (``position``, or the lowest free one). The match starts when
    its last seat is taken. A private match (``games.lobby``) takes only people the lobby
    ``admitted`` (an invitation or the invite code). Raises MatchNotFound, MatchNotOpen,
    AlreadySeated, MatchFull, SeatTaken, InvalidSeat, InvitationRequired,
    AuthenticationRequired."""
    require_user(user)
    match = lock_match(match_id)
    if not admitted and PrivateMatch.objects.filter(match_id=match.pk).exists():
        raise errors.InvitationRequired()
    if match.seats.filter(user=user).exists():
        raise errors.AlreadySeated()
    free = free_positions(match)
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
    _start_if_full(match)
    if match.status == MatchStatus.OPEN:
        touch(match)
        schedule_follow_up(match, None)
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
    schedule_follow_up(match, None)


# -- status -----------------------------------------------------------------------------------
@transaction.atomic
def start_match(*, user, match_id: Any, fill_with: str | None = None) -> Match:
    """Start an open match now (its creator or an admin). Open seats are refused
    (MatchNotFull) unless ``fill_with`` names a bot kind to seat in each of them.
    Raises MatchNotFound, NotAllowed, MatchNotOpen, MatchNotFull, UnknownBotKind."""
    require_user(user)
    match = lock_match(match_id)
    if match.created_by_id != user.pk and not can_manage_matches(user):
        raise errors.NotAllowed("Only the match's creator or an admin can start it.")
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
    InvalidRequest (a reason PostgreSQL cannot store: one with a NUL character)."""
    require_user(user)
    reason = str(reason or "")
    if "\x00" in reason:
        raise errors.InvalidRequest("The reason may not contain NUL characters.",
                                    details={"field": "reason"})
    match = lock_match(match_id)
    if not can_manage_matches(user) and (match.created_by_id != user.pk or match.ply > 0):
        raise errors.NotAllowed("Only the match's creator before the first move, or an "
                                "admin, can abort it; players resign instead.")
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    match.status = MatchStatus.ABORTED
    match.to_act = []
    match.abort_reason = reason[:200]
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "to_act", "abort_reason", "finished_at", "updated_at"])
    schedule_follow_up(match, None)
    return match


@transaction.atomic
def replace_seat_with_bot(*, user, match_id: Any, position: int, bot_kind: str) -> Seat:
    """Hand seat ``position`` to a ``bot_kind`` bot (admins only): a player who left, or an
    open seat nobody takes. If the seat owes a decision now, the bot plays it.
    Raises NotAllowed, MatchNotFound, MatchOver, InvalidSeat, UnknownBotKind."""
    require_admin(user, "hand a seat to a bot")
    match = lock_match(match_id)
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    position = check_position(match, position)
    kind = check_bot_kind(bot_kind)
    seat = match.seats.filter(position=position).first()
    if seat is None:
        seat = Seat.objects.create(match=match, position=position, bot_kind=kind)
    else:
        Seat.objects.filter(pk=seat.pk).update(user=None, bot_kind=kind)
        seat.refresh_from_db()
    if match.status == MatchStatus.OPEN:
        _start_if_full(match)
        if match.status != MatchStatus.OPEN:
            return seat  # the start scheduled the bot turns and the notification
    touch(match)
    state = None
    if match.status == MatchStatus.ACTIVE:
        state = get_engine(match.game).from_json(match.state)
    schedule_follow_up(match, state)
    return seat
