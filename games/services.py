"""The only writers of matches, seats, moves and results.

Every caller (REST, GraphQL, Celery tasks, admin, management commands) changes a match
through these functions and nothing else. Each one checks and locks first, then mutates,
then schedules follow-up work (bot turns, scoring, live notifications) with
``transaction.on_commit`` so nothing is announced that did not land.

Errors are ``games.errors.GameServiceError`` subclasses with a stable ``code`` and an
``http_status``. A service that raises has written nothing.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from games import errors
from games.bot_randomness import bot_key
from games.bot_turns import think_bot_move
from games.clocks import presets as clock_presets
from games.clocks.outcome import final_result
from games.clocks.running import CLOCK_FIELDS, sync_clocks
from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.feed import services as feed
from games.lobby.models import PrivateMatch
from games.match_rows import load_match
from games.models import ENDED_STATUSES, Match, MatchStatus, Move, Result, Seat
from games.notifications import publish_match_update_soon
from games.permissions import can_manage_matches
from games.ratings.services import rate_match
from games.replay import replay_state
from games.selectors import parse_match_id, whole_number
from games.write_batch import WriteBatch
from rules import IllegalMove, get_engine
from rules import InvalidOptions as EngineInvalidOptions
from rules.bots import BOT_KINDS
from rules.engine import Engine

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


# -- helpers ----------------------------------------------------------------------------------
def engine_for(game: str, *, unknown_status: int = 404) -> Engine:
    """The engine of ``game``, or ``UnknownGame`` (404 for a path, 400 for a request body)."""
    if not isinstance(game, str):
        raise errors.UnknownGame("The game must be a string.", http_status=unknown_status)
    try:
        return get_engine(game)
    except KeyError:
        raise errors.UnknownGame(
            f"No game called {game[:40]!r}.", details={"game": game[:40]},
            http_status=unknown_status,
        ) from None


def seed_commitment(seed: str) -> str:
    """The public SHA-256 commitment of ``seed`` (hex)."""
    return hashlib.sha256(seed.encode()).hexdigest()


def _require_user(user) -> None:
    if user is None or not getattr(user, "is_authenticated", False):
        raise errors.AuthenticationRequired()


def _is_admin(user) -> bool:
    # A model permission (or superuser), never is_staff alone: games/permissions.py.
    return can_manage_matches(user)


def _lock_match(match_id: Any) -> Match:
    """Lock the match row for this transaction (DESIGN.md, "Writing a move", step 1)."""
    pk = parse_match_id(match_id)
    try:
        return Match.objects.select_for_update().get(pk=pk)
    except Match.DoesNotExist:
        raise errors.MatchNotFound(details={"match_id": pk}) from None


def _lock_match_to_play(match_id: Any) -> Match:
    """``_lock_match`` that also loads what the move's answer shows, in the same statement
    (games/match_rows.py): the creator, the seats with their users and the incidents, so
    the caller can answer from this object after the commit instead of reading the match
    again (issue 14). Only the match row is locked; seats and incidents change only under
    that same lock."""
    pk = parse_match_id(match_id)
    match = load_match(pk, lock=True)
    if match is None:
        raise errors.MatchNotFound(details={"match_id": pk})
    return match


def _check_position(match: Match, position: Any) -> int:
    number = whole_number(position)  # ASCII digits only, like a match id
    if number is None:
        raise errors.InvalidSeat("A seat position must be a whole number.")
    position = number
    if not 0 <= position < match.players:
        raise errors.InvalidSeat(
            f"Seat positions of this match run from 0 to {match.players - 1}.",
            details={"position": position, "players": match.players},
        )
    return position


def _check_bot_kind(kind: Any) -> str:
    if kind not in BOT_KINDS:
        raise errors.UnknownBotKind(
            f"No bot kind {str(kind)[:40]!r}; choose one of {', '.join(BOT_KINDS)}.",
            details={"bot_kinds": list(BOT_KINDS)},
        )
    return kind


def _schedule_follow_up(
    match: Match, state: Any | None, seats: list[Seat] | None = None,
    batch: WriteBatch | None = None,
) -> None:
    """After commit: bot turns for bot seats now to act, scoring if the game is over, and
    the live notification. Reads only what is known now, inside the transaction
    (``seats``: the match's seats if the caller has them already; ``batch``: the
    caller's writes, which the feed events join)."""
    match_id, ply, status = match.pk, match.ply, match.status
    bot_turns: list[int] = []
    to_act: set[int] = set()
    if status == MatchStatus.ACTIVE and state is not None:
        to_act = set(get_engine(match.game).to_act(state))
        if seats is None:
            seats = list(match.seats.all())
        bot_turns = sorted(
            seat.position for seat in seats if seat.bot_kind and seat.position in to_act
        )
    if status == MatchStatus.ACTIVE or status in ENDED_STATUSES:
        # the players' feeds: "your turn", "match finished" (stored now, pushed on commit)
        feed.announce_match(match, state, seats if seats is not None else
                            list(match.seats.all()), sorted(to_act), batch)

    def follow_up() -> None:
        publish_match_update_soon(match_id, ply, status)
        for position in bot_turns:
            enqueue_bot_turn(match_id, position, ply)
        if status == MatchStatus.SCORING:
            enqueue_scoring(match_id)

    transaction.on_commit(follow_up, robust=True)


def _touch(match: Match) -> None:
    """Move ``updated_at`` on: the seats changed, so what GET shows changed although the
    ply and status did not (a poller's ETag must not match any more: games.polling)."""
    match.save(update_fields=["updated_at"])


def _to_act_now(match: Match, engine: Engine, state: Any) -> list[int]:
    """``Match.to_act`` for the snapshot being written: the engine's answer while the
    match is active, nobody otherwise."""
    return list(engine.to_act(state)) if match.status == MatchStatus.ACTIVE else []


def _free_positions(match: Match) -> list[int]:
    taken = set(match.seats.values_list("position", flat=True))
    return [position for position in range(match.players) if position not in taken]


def _start_locked(match: Match) -> Match:
    """Deal the game (engine.setup) and make the match active. The match row is locked."""
    engine = get_engine(match.game)
    state = engine.setup(match.players, match.options, match.seed)
    match.state = engine.to_json(state)
    match.ply = 0
    match.status = MatchStatus.SCORING if engine.is_over(state) else MatchStatus.ACTIVE
    match.to_act = _to_act_now(match, engine, state)
    match.started_at = timezone.now()
    sync_clocks(match, state)
    match.save(update_fields=["state", "ply", "status", "to_act", "started_at", "updated_at",
                              *CLOCK_FIELDS])
    seats = list(match.seats.all())
    feed.announce_started(match, seats)
    _schedule_follow_up(match, state, seats)
    return match


def _start_if_full(match: Match) -> None:
    if match.status == MatchStatus.OPEN and not _free_positions(match):
        _start_locked(match)


# -- lobby --------------------------------------------------------------------------------------
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
        _require_user(user)
    engine = engine_for(game, unknown_status=400)
    catalogue = engine.describe()
    limits = catalogue.get("players", {})
    if isinstance(players, bool) or not isinstance(players, int):
        raise errors.InvalidPlayerCount("players must be a whole number.", details=limits)
    if not limits.get("min", 1) <= players <= limits.get("max", 16):
        raise errors.InvalidPlayerCount(
            f"{catalogue.get('title', game)} is for {limits.get('min')} to "
            f"{limits.get('max')} players, not {players}.",
            details={"players": players, **limits},
        )
    if options is not None and not isinstance(options, dict):
        raise errors.InvalidOptions("options must be a JSON object.")
    try:
        normalized = engine.normalize_options(players, options)
    except EngineInvalidOptions as exc:
        bad_count = exc.code == "invalid_player_count"
        error_class = errors.InvalidPlayerCount if bad_count else errors.InvalidOptions
        raise error_class(exc.message, details={"reason": exc.code, **exc.details}) from None

    match = Match(game=game, options=normalized, players=players,  # for the checks below
                  time_control=clock_presets.normalize(time_control))
    bots: dict[int, str] = {}
    if bot_seats is not None and not isinstance(bot_seats, Mapping):
        raise errors.InvalidSeat("bot_seats must map seat positions to bot kinds.")
    for position, kind in (bot_seats or {}).items():
        bots[_check_position(match, position)] = _check_bot_kind(kind)

    seat_for_creator = None
    if take_seat and user is not None:
        if creator_seat is None:
            free = [position for position in range(players) if position not in bots]
            if not free:
                raise errors.MatchFull("Every seat was given to a bot; none is left for you.")
            seat_for_creator = free[0]
        else:
            seat_for_creator = _check_position(match, creator_seat)
            if seat_for_creator in bots:
                raise errors.SeatTaken(details={"position": seat_for_creator})

    if seed is None:
        seed = secrets.token_hex(16)
    match.seed = str(seed)[:128]
    match.seed_commitment = seed_commitment(match.seed)
    match.rules_version = str(catalogue.get("rules_version", engine.rules_version))
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
        _schedule_follow_up(match, None)
    return match


@transaction.atomic
def join_match(*, user, match_id: Any, position: int | None = None,
               admitted: bool = False) -> Seat:
    """Take an open seat (``position``, or the lowest free one). The match starts when
    its last seat is taken. A private match (``games.lobby``) takes only people the lobby
    ``admitted`` (an invitation or the invite code). Raises MatchNotFound, MatchNotOpen,
    AlreadySeated, MatchFull, SeatTaken, InvalidSeat, InvitationRequired,
    AuthenticationRequired."""
    _require_user(user)
    match = _lock_match(match_id)
    if not admitted and PrivateMatch.objects.filter(match_id=match.pk).exists():
        raise errors.InvitationRequired()
    if match.seats.filter(user=user).exists():
        raise errors.AlreadySeated()
    free = _free_positions(match)
    if match.status != MatchStatus.OPEN:
        if not free:
            raise errors.MatchFull(details={"status": match.status})
        raise errors.MatchNotOpen(details={"status": match.status})
    if position is None:
        if not free:
            raise errors.MatchFull()
        position = free[0]
    else:
        position = _check_position(match, position)
        if position not in free:
            raise errors.SeatTaken(details={"position": position})
    try:
        with transaction.atomic():
            seat = Seat.objects.create(match=match, position=position, user=user)
    except IntegrityError:  # a concurrent join won the seat despite the lock (defensive)
        raise errors.SeatTaken(details={"position": position}) from None
    _start_if_full(match)
    if match.status == MatchStatus.OPEN:
        _touch(match)
        _schedule_follow_up(match, None)
    return seat


@transaction.atomic
def leave_match(*, user, match_id: Any) -> None:
    """Give up your seat while the match is still open. Raises MatchNotFound,
    MatchNotOpen, NotSeated, AuthenticationRequired."""
    _require_user(user)
    match = _lock_match(match_id)
    if match.status != MatchStatus.OPEN:
        raise errors.MatchNotOpen(details={"status": match.status})
    deleted, _ = match.seats.filter(user=user).delete()
    if not deleted:
        raise errors.NotSeated()
    _touch(match)
    _schedule_follow_up(match, None)


@transaction.atomic
def start_match(*, user, match_id: Any, fill_with: str | None = None) -> Match:
    """Start an open match now (its creator or an admin). Open seats are refused
    (MatchNotFull) unless ``fill_with`` names a bot kind to seat in each of them.
    Raises MatchNotFound, NotAllowed, MatchNotOpen, MatchNotFull, UnknownBotKind."""
    _require_user(user)
    match = _lock_match(match_id)
    if match.created_by_id != user.pk and not _is_admin(user):
        raise errors.NotAllowed("Only the match's creator or an admin can start it.")
    if match.status != MatchStatus.OPEN:
        raise errors.MatchNotOpen(details={"status": match.status})
    free = _free_positions(match)
    if free:
        if fill_with is None:
            raise errors.MatchNotFull(details={"open_seats": free})
        kind = _check_bot_kind(fill_with)
        Seat.objects.bulk_create([Seat(match=match, position=p, bot_kind=kind) for p in free])
    return _start_locked(match)


# -- playing ------------------------------------------------------------------------------------
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
        _require_user(user)
    if not isinstance(move, dict):
        raise errors.MalformedMove(details={"received": type(move).__name__})
    if expected_ply is not None and (
        isinstance(expected_ply, bool) or not isinstance(expected_ply, int) or expected_ply < 0
    ):
        raise errors.InvalidPly("expected_ply must be a whole number >= 0.")

    with transaction.atomic():
        match = _lock_match_to_play(match_id)
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
        match.to_act = _to_act_now(match, engine, new_state)
        sync_clocks(match, new_state, seats, mover=position)
        batch.update(match, ["ply", "state", "status", "to_act", "updated_at",
                             *CLOCK_FIELDS])
        _schedule_follow_up(match, new_state, seats, batch)
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


@transaction.atomic
def score_match(*, match_id: Any, rescore: bool = False) -> bool:
    """Write the ``Result`` rows of a match whose game is over and mark it finished.
    Idempotent: a finished match is left alone, unless ``rescore`` (admin) asks to rebuild
    the state from the log and rewrite the results. Returns True when it wrote results."""
    match = _lock_match(match_id)
    if match.status == MatchStatus.FINISHED and not rescore:
        return False
    if match.status not in (MatchStatus.SCORING, MatchStatus.FINISHED):
        return False
    engine = get_engine(match.game)
    if rescore:
        state = replay_state(match)  # the log is the truth; the snapshot only a cache
        match.state = engine.to_json(state)
    else:
        state = engine.from_json(match.state)
    # The engine's result with resignations and forfeits on top (games/clocks/outcome.py).
    result = final_result(engine, state, match.players, match.incidents.all())
    if result is None:
        logger.error("match %s is in %s but its game is not over", match.pk, match.status)
        return False
    Result.objects.filter(match=match).delete()
    Result.objects.bulk_create(
        [
            Result(
                match=match,
                seat=position,
                score=int(result["scores"][position]),
                rank=int(result["ranks"][position]),
                breakdown=_breakdown_of(result, position),
            )
            for position in range(match.players)
        ]
    )
    match.status = MatchStatus.FINISHED
    match.to_act = []
    match.finished_at = match.finished_at or timezone.now()
    match.save(update_fields=["state", "status", "to_act", "finished_at", "updated_at"])
    rate_match(match)  # in this transaction: results and ratings land together, once
    _schedule_follow_up(match, None)
    return True


def _breakdown_of(result: dict, position: int) -> Any:
    breakdown = result.get("breakdown")
    if isinstance(breakdown, list) and position < len(breakdown):
        return breakdown[position]
    if isinstance(breakdown, dict):
        return breakdown.get(str(position), breakdown.get(position, {}))
    return {}


# -- administration ---------------------------------------------------------------------------
@transaction.atomic
def abort_match(*, user, match_id: Any, reason: str = "") -> Match:
    """Stop a match that has not finished: its creator before the first move, an admin at
    any time (after that players resign: games.clocks.services). The seed and the full
    log become public, as after any end. Raises MatchNotFound, NotAllowed, MatchOver,
    InvalidRequest (a reason PostgreSQL cannot store: one with a NUL character)."""
    _require_user(user)
    reason = str(reason or "")
    if "\x00" in reason:
        raise errors.InvalidRequest("The reason may not contain NUL characters.",
                                    details={"field": "reason"})
    match = _lock_match(match_id)
    if not _is_admin(user) and (match.created_by_id != user.pk or match.ply > 0):
        raise errors.NotAllowed("Only the match's creator before the first move, or an "
                                "admin, can abort it; players resign instead.")
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    match.status = MatchStatus.ABORTED
    match.to_act = []
    match.abort_reason = reason[:200]
    match.finished_at = timezone.now()
    match.save(update_fields=["status", "to_act", "abort_reason", "finished_at", "updated_at"])
    _schedule_follow_up(match, None)
    return match


@transaction.atomic
def replace_seat_with_bot(*, user, match_id: Any, position: int, bot_kind: str) -> Seat:
    """Hand seat ``position`` to a ``bot_kind`` bot (admins only): a player who left, or an
    open seat nobody takes. If the seat owes a decision now, the bot plays it.
    Raises NotAllowed, MatchNotFound, MatchOver, InvalidSeat, UnknownBotKind."""
    _require_user(user)
    if not _is_admin(user):
        raise errors.NotAllowed("Only an admin can hand a seat to a bot.")
    match = _lock_match(match_id)
    if match.status in ENDED_STATUSES:
        raise errors.MatchOver(details={"status": match.status})
    position = _check_position(match, position)
    kind = _check_bot_kind(bot_kind)
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
    _touch(match)
    state = None
    if match.status == MatchStatus.ACTIVE:
        state = get_engine(match.game).from_json(match.state)
    _schedule_follow_up(match, state)
    return seat


def resume_stalled_matches(*, idle_seconds: float = 30.0) -> dict:
    """Re-enqueue the bot turns and scoring of matches idle for ``idle_seconds`` (a task
    was lost: broker down, worker killed). Safe to repeat: those tasks are idempotent.
    Returns counts ``{"bot_turns": n, "scorings": m}``."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    counts = {"bot_turns": 0, "scorings": 0}
    for match_id in Match.objects.filter(
        status=MatchStatus.SCORING, updated_at__lt=cutoff
    ).values_list("pk", flat=True):
        enqueue_scoring(match_id)
        counts["scorings"] += 1
    stalled = Match.objects.filter(
        status=MatchStatus.ACTIVE, updated_at__lt=cutoff, seats__bot_kind__isnull=False
    ).distinct()
    for match in stalled.iterator():
        engine = get_engine(match.game)
        to_act = set(engine.to_act(engine.from_json(match.state)))
        for position in match.seats.filter(bot_kind__isnull=False).values_list(
            "position", flat=True
        ):
            if position in to_act:
                enqueue_bot_turn(match.pk, position, match.ply)
                counts["bot_turns"] += 1
    return counts
