"""The only writer of quick-match requests: asking, cancelling, pairing, expiring.

Pairing (``pair_waiting``) runs one at a time: it takes a PostgreSQL advisory lock for
its transaction, so two workers (or the beat and a request's task) never read the same
waiting requests and seat a person twice. Each request row is also locked while it is
paired, and a request moves from ``waiting`` to ``matched`` exactly once (a conditional
update); the unique "one waiting request per user" constraint keeps anybody from waiting
twice. A request that waited longer than ``QUICK_MATCH_TTL_SECONDS`` expires.
"""

from __future__ import annotations

import json
import math
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.dispatch import enqueue_pairing
from games.feed import services as feed
from games.matches import errors, setup_checks, time_controls
from games.matches import services as match_services
from games.matches.errors import InvalidTimeControl, UnknownPreset
from games.matches.guards import require_user
from games.quickmatch.models import QuickMatchRequest, RequestStatus
from games.ratings.models import Rating
from games.ratings.services import MODEL
from infra.numbers import BIGINT_MAX, whole_number

#: arbitrary constant naming the pairing lock (pg_advisory_xact_lock's key)
PAIRING_LOCK = 0x71C4_3A7C
#: a rating range must lie inside these bounds (openskill mu lives around 0..50)
RATING_BOUND = 1000.0


def ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "QUICK_MATCH_TTL_SECONDS", 600))


def _rating_bound(range_: dict, key: str) -> float | None:
    value = range_.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or \
            not math.isfinite(value) or abs(value) > RATING_BOUND:
        raise errors.InvalidRequest(_("rating_range.%(key)s must be a number from -%(bound)s "
                                      "to %(bound)s.") % {"key": key, "bound": f"{RATING_BOUND:g}"},
                                    details={"field": f"rating_range.{key}"})
    return float(value)


def _parse_range(rating_range: Any) -> tuple[float | None, float | None]:
    if rating_range is None:
        return None, None
    if not isinstance(rating_range, dict) or set(rating_range) - {"min", "max"}:
        raise errors.InvalidRequest('rating_range must be {"min": number, "max": number} '
                                    "(either may be left out).",
                                    details={"field": "rating_range"})
    low, high = _rating_bound(rating_range, "min"), _rating_bound(rating_range, "max")
    if low is not None and high is not None and low > high:
        raise errors.InvalidRequest(_("rating_range.min is above rating_range.max."),
                                    details={"field": "rating_range"})
    return low, high


def rating_of(user, game: str) -> float:
    """The user's rating (mu) in ``game``, openskill's prior for a newcomer."""
    row = Rating.objects.filter(user=user, game=game).values_list("mu", flat=True).first()
    return row if row is not None else MODEL.mu


@transaction.atomic
def request_quick_match(*, user, game: Any, players: Any, options: Any = None,
                        time_control: Any = None, rating_range: Any = None
                        ) -> QuickMatchRequest:
    """Wait for a ``players``-seat match of ``game`` with these options (and time
    control), with opponents whose rating lies in ``rating_range`` (``{"min", "max"}``,
    on openskill's mu) if given. Pairing is asked for at once (after the commit).
    Raises UnknownGame, InvalidPlayerCount, InvalidOptions, InvalidRequest (400),
    AlreadyWaiting (409), AuthenticationRequired."""
    require_user(user)
    # create_match's own checks, so a request that waits can always be seated; options
    # that do not fit the count (Han's map) stay invalid_options here, as they always were
    engine = setup_checks.engine_for(game, unknown_status=400)
    count = setup_checks.player_count(players, engine.describe())
    normalized = setup_checks.match_options(engine, count, options)
    time_controls.normalize(time_control)  # refused here, not when the match is created
    low, high = _parse_range(rating_range)
    now = timezone.now()
    try:
        with transaction.atomic():
            request = QuickMatchRequest.objects.create(
                user=user, game=game, players=count, options=normalized,
                time_control=time_control, rating_min=low, rating_max=high,
                rating=rating_of(user, game), expires_at=now + ttl())
    except IntegrityError:
        raise errors.AlreadyWaiting() from None
    transaction.on_commit(lambda: enqueue_pairing(), robust=True)
    return request


@transaction.atomic
def cancel(*, user, request_id: Any) -> QuickMatchRequest:
    """Stop waiting. Raises QuickMatchNotFound (404), QuickMatchClosed (409: already
    matched, cancelled or expired)."""
    require_user(user)
    number = whole_number(request_id)
    if number is None or not 1 <= number <= BIGINT_MAX:
        raise errors.QuickMatchNotFound()
    request = QuickMatchRequest.objects.select_for_update().filter(pk=number,
                                                                  user=user).first()
    if request is None:
        raise errors.QuickMatchNotFound(details={"request_id": number})
    if request.status != RequestStatus.WAITING:
        raise errors.QuickMatchClosed(details={"status": request.status,
                                               "match_id": request.match_id})
    request.status = RequestStatus.CANCELLED
    request.closed_at = timezone.now()
    request.save(update_fields=["status", "closed_at"])
    return request


def withdraw_for_leaver(user) -> int:
    """``user``'s account was erased (games/leaving): its waiting request, if any, is
    cancelled. Returns how many were."""
    return QuickMatchRequest.objects.filter(user=user, status=RequestStatus.WAITING).update(
        status=RequestStatus.CANCELLED, closed_at=timezone.now())


def _accepts(request: QuickMatchRequest, other: QuickMatchRequest) -> bool:
    """``request``'s range admits ``other``'s rating."""
    return ((request.rating_min is None or other.rating >= request.rating_min)
            and (request.rating_max is None or other.rating <= request.rating_max))


def _compatible(table: list[QuickMatchRequest], candidate: QuickMatchRequest) -> bool:
    return all(_accepts(seated, candidate) and _accepts(candidate, seated)
               for seated in table)


def _key(request: QuickMatchRequest) -> tuple:
    return (request.game, request.players, json.dumps(request.options, sort_keys=True),
            json.dumps(_clock_of(request), sort_keys=True))


def _clock_of(request: QuickMatchRequest) -> Any:
    """The clock the request asked for, by its rules: "blitz", {"preset": "blitz"} and
    the preset's numbers written out as a custom clock are one clock, and so are no time
    control and "none" (the request keeps what its player wrote; pairing compares
    clocks, not spellings)."""
    try:
        clock = time_controls.normalize(request.time_control)
    except (InvalidTimeControl, UnknownPreset):
        return request.time_control  # a preset retired since: pairs with its own spelling
    clock.pop("preset")  # the name; the rules are the other keys
    return clock


def _tables(waiting: list[QuickMatchRequest]) -> list[list[QuickMatchRequest]]:
    """Groups of compatible requests, longest waiting first: the oldest unseated request
    opens a table, then the compatible requests closest to its rating join (the longer
    waiting first among equals) until the table is full; a table that cannot be filled
    leaves its requests waiting. Only requests with the same game, count, options and
    time control may sit together."""
    by_key: dict[tuple, list[QuickMatchRequest]] = {}
    for request in waiting:  # oldest first, and so is each group
        by_key.setdefault(_key(request), []).append(request)
    tables = []
    for group in by_key.values():
        seated: set[int] = set()
        for anchor in group:
            if anchor.pk in seated:
                continue
            table = [anchor]
            others = sorted(
                (other for other in group if other.pk not in seated and other.pk != anchor.pk),
                key=lambda other, anchor=anchor: (abs(other.rating - anchor.rating),
                                                  other.created_at, other.pk))
            for other in others:
                if len(table) == anchor.players:
                    break
                if other.user_id not in {each.user_id for each in table} and \
                        _compatible(table, other):
                    table.append(other)
            if len(table) == anchor.players:
                tables.append(table)
                seated.update(each.pk for each in table)
    # the table whose first request waited longest is seated first
    return sorted(tables, key=lambda table: (table[0].created_at, table[0].pk))


@transaction.atomic
def pair_waiting() -> dict:
    """Expire old requests, then seat compatible waiting requests together: one match per
    full table (``_tables``), seats in waiting order, announced on each player's feed.
    Returns ``{"matches": n, "paired": m, "expired": k}``."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [PAIRING_LOCK])
    now = timezone.now()
    expired = QuickMatchRequest.objects.filter(
        status=RequestStatus.WAITING, expires_at__lte=now
    ).update(status=RequestStatus.EXPIRED, closed_at=now)
    waiting = list(QuickMatchRequest.objects.select_for_update()
                   .filter(status=RequestStatus.WAITING).order_by("created_at", "pk"))
    matches = paired = 0
    for table in _tables(waiting):
        _seat_table(table, now)
        matches += 1
        paired += len(table)
    return {"matches": matches, "paired": paired, "expired": expired}


def _seat_table(table: list[QuickMatchRequest], now) -> None:
    first = table[0]
    match = match_services.create_match(
        user=first.user, game=first.game, players=first.players, options=first.options,
        time_control=first.time_control, creator_seat=0)
    for request in table[1:]:
        match_services.join_match(user=request.user, match_id=match.pk)
    for request in table:
        updated = QuickMatchRequest.objects.filter(
            pk=request.pk, status=RequestStatus.WAITING
        ).update(status=RequestStatus.MATCHED, match=match, closed_at=now)
        if updated != 1:  # cannot happen under the lock; never seat anyone twice
            raise RuntimeError(f"quick-match request {request.pk} was not waiting")
        request.match_id = match.pk
        feed.announce_matched(request)
