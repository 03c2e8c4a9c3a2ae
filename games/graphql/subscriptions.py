"""``matchUpdates``: turning the announcements of games/live/fanout.py into
per-subscriber pushes.

A notification says only "match N changed (ply, status)": it carries nothing hidden. Each
subscriber re-reads the match through ``games.matches.selectors`` as itself, so a player gets
their own seat's view and a spectator the spectator view, redacted by the engine alone.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from dataclasses import dataclass

import strawberry
from channels.db import database_sync_to_async
from django.utils.translation import gettext as _
from strawberry.types import Info

from games.graphql.clock_types import Incident, SeatClock
from games.graphql.context import current_user
from games.graphql.enums import MatchStatusEnum
from games.graphql.errors import as_graphql_error
from games.graphql.play_types import LoggedMove, result_or_none
from games.graphql.types import MatchUpdate, Seat
from games.live.channels import MATCH_UPDATE_TYPE, match_group_name
from games.matches import clock_selectors, errors, parsing, selectors
from games.matches.models import ENDED_STATUSES, MatchStatus
from infra.api_errors import ApiError
from infra.observability import metrics


@dataclass(frozen=True)
class _Reading:
    update: MatchUpdate
    # what a subscriber can tell apart: a push that would repeat the last one is skipped
    fingerprint: tuple
    ended: bool


def _read(match_id: int, user, since: int | None) -> _Reading:
    match = selectors.get_match(match_id)
    events = selectors.match_events(match, user, since=match.ply if since is None else since)
    seats = selectors.seats_of(match)
    finished = match.status == MatchStatus.FINISHED
    clocks = clock_selectors.clocks_of(match)
    update = MatchUpdate(
        match_id=strawberry.ID(str(match.pk)),
        ply=events["ply"],
        status=MatchStatusEnum(events["status"]),
        to_act=list(events["to_act"]),
        seats=[Seat.from_row(row) for row in seats],
        moves=[LoggedMove.from_entry(entry) for entry in events["moves"]],
        view=events["view"],
        clocks=[SeatClock.from_row(row) for row in clocks],
        incidents=[Incident.from_row(row) for row in events["incidents"]],
        result=result_or_none(match) if finished else None,
    )
    fingerprint = (
        events["ply"], events["status"],
        tuple((row["position"], row["kind"], row["user"], row["bot_kind"]) for row in seats),
        # a clock's deadline or its stopped time (time added, a reclaim), not its countdown
        tuple((row["deadline"], None if row["running"] else row["remaining_ms"])
              for row in clocks),
        len(events["incidents"]),  # time added changes no seat and may move no deadline
    )
    return _Reading(update=update, fingerprint=fingerprint, ended=match.status in ENDED_STATUSES)


_read_async = database_sync_to_async(_read)


async def _match_updates(
    info: Info, match_id: strawberry.ID, since: int | None
) -> AsyncGenerator[MatchUpdate, None]:
    consumer = info.context.ws
    if consumer is None:
        raise as_graphql_error(
            errors.InvalidRequest(_("Subscriptions are served over websockets only."))
        )
    user = current_user(info)
    try:
        pk = parsing.parse_match_id(match_id)
    except ApiError as exc:
        raise as_graphql_error(exc) from None

    async with consumer.listen_to_channel(
        MATCH_UPDATE_TYPE, groups=[match_group_name(pk)]
    ) as notifications:
        # Join the group before the first read: a move landing in between is then both in
        # the first push's state and announced, never lost.
        try:
            reading = await _read_async(pk, user, since)
        except ApiError as exc:
            raise as_graphql_error(exc) from None
        yield reading.update
        if reading.ended:
            return
        last = reading
        async for _notification in notifications:
            try:
                reading = await _read_async(pk, user, last.update.ply)
            except ApiError as exc:  # the match was deleted under us
                raise as_graphql_error(exc) from None
            if reading.fingerprint == last.fingerprint:
                continue  # already pushed (several notifications, one read)
            yield reading.update
            if reading.ended:
                return
            last = reading


@strawberry.type
class Subscription:
    @strawberry.subscription(
        description="Live updates of a match over websockets (graphql-transport-ws): the "
        "current state at once, then one update per change with the new moves and the view "
        "as you may see it, and the result when the match ends (then the stream completes)."
    )
    async def match_updates(
        self, info: Info, match_id: strawberry.ID, since: int | None = None
    ) -> AsyncGenerator[MatchUpdate, None]:
        metrics.subscribed(metrics.GRAPHQL)
        try:
            async for update in _match_updates(info, match_id, since):
                yield update
        finally:
            metrics.unsubscribed(metrics.GRAPHQL)
