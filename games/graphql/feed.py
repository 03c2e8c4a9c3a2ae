"""``myEvents``: the caller's feed as a GraphQL subscription (websockets), the same events
as ``GET /api/v1/stream/`` (``games.feed.stream.follow``)."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import strawberry
from channels.db import database_sync_to_async
from strawberry.scalars import JSON
from strawberry.types import Info

from games.feed.selectors import resume_point
from games.feed.stream import follow
from games.graphql.context import authenticated_user
from games.graphql.errors import as_graphql_error
from games.matches import errors
from infra.api_errors import ApiError


@strawberry.type(description="One event of your feed: REST's stream line, field for field "
                 "(docs/feed.md); the fields of other kinds are null.")
class FeedEvent:
    id: strawberry.ID = strawberry.field(description="Pass the last one you saw as "
                                         "lastEventId when you reconnect (REST's integer "
                                         "id: GraphQL gives every id as an ID).")
    kind: str = strawberry.field(description="your_turn, match_started, match_finished, "
                                 "invitation_received, matched.")
    created_at: str
    match_id: strawberry.ID | None = None
    game: str | None = None
    ply: int | None = None
    seat: int | None = None
    deadline: str | None = strawberry.field(
        default=None, description="your_turn: when your clock runs out; null without one.")
    players: int | None = None
    status: str | None = strawberry.field(default=None,
                                          description="match_finished: finished or aborted.")
    invitation_id: strawberry.ID | None = None
    inviter: str | None = None
    is_rematch: bool | None = None
    position: int | None = None
    request_id: strawberry.ID | None = None
    data: JSON = strawberry.field(
        description="The event's fields with REST's snake_case keys.",
        deprecation_reason="Use the typed fields (matchId, game, ply...): the same facts "
        "in GraphQL's names.")

    @classmethod
    def from_event(cls, event: dict) -> FeedEvent:
        data = {key: value for key, value in event.items()
                if key not in ("id", "kind", "created_at")}
        ids = {name: strawberry.ID(str(data[name])) if data.get(name) is not None else None
               for name in ("match_id", "invitation_id", "request_id")}
        facts = {name: data.get(name) for name in (
            "game", "ply", "seat", "deadline", "players", "status", "inviter", "is_rematch",
            "position")}
        return cls(id=strawberry.ID(str(event["id"])), kind=event["kind"],
                   created_at=event["created_at"], data=data, **ids, **facts)


@strawberry.type
class FeedSubscriptions:
    @strawberry.subscription(description="Your events as they happen; with lastEventId, "
                             "first every event after it (a reconnect misses nothing).")
    async def my_events(self, info: Info, last_event_id: strawberry.ID | None = None
                        ) -> AsyncGenerator[FeedEvent, None]:
        user = authenticated_user(info)
        if user is None:
            raise as_graphql_error(errors.AuthenticationRequired(
                "myEvents needs a token (connection_init authToken)."))
        try:
            last = await database_sync_to_async(resume_point)(user, last_event_id)
        except ApiError as exc:
            raise as_graphql_error(exc) from None
        async for event in follow(user, last):
            if event is None:
                continue  # websockets have their own keep-alive
            yield FeedEvent.from_event(event)
