"""GraphQL fields of quick match: ``requestQuickMatch``, ``cancelQuickMatch`` and
``myQuickMatches``, over the same services as REST."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from games.graphql.context import authenticated_user
from games.graphql.errors import attempt, signed_in
from games.graphql.types import GameError
from games.quickmatch import selectors, services


@strawberry.type(description="A quick-match request.")
class QuickMatchRequest:
    id: strawberry.ID
    game: str
    players: int
    options: JSON
    time_control: JSON | None
    rating_range: JSON
    rating: float
    status: str = strawberry.field(description="waiting, matched, cancelled, expired.")
    match_id: strawberry.ID | None
    created_at: datetime
    expires_at: datetime
    closed_at: datetime | None

    @classmethod
    def from_row(cls, row: dict) -> QuickMatchRequest:
        return cls(**{**row, "id": strawberry.ID(str(row["id"])),
                      "match_id": (strawberry.ID(str(row["match_id"]))
                                   if row["match_id"] else None)})


@strawberry.type
class QuickMatchPayload:
    request: QuickMatchRequest | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class QuickMatchQueries:
    @strawberry.field(description="Your latest quick-match requests, newest first.")
    def my_quick_matches(self, info: Info) -> list[QuickMatchRequest]:
        user = authenticated_user(info)
        if user is None:
            return []
        return [QuickMatchRequest.from_row(row) for row in selectors.requests_of(user)]


@strawberry.type
class QuickMatchMutations:
    @strawberry.mutation(description="Wait for a quick match (REST: POST /api/v1/quick-match/).")
    def request_quick_match(self, info: Info, game: str, players: int,
                            options: JSON | None = None, time_control: JSON | None = None,
                            rating_range: JSON | None = None) -> QuickMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return QuickMatchPayload(errors=problems)
        request, problems = attempt(lambda: services.request_quick_match(
            user=user, game=game, players=players, options=options,
            time_control=time_control, rating_range=rating_range))
        if problems:
            return QuickMatchPayload(errors=problems)
        request.refresh_from_db()
        return QuickMatchPayload(request=QuickMatchRequest.from_row(
            selectors.request_row(request)))

    @strawberry.mutation(description="Stop waiting for a quick match.")
    def cancel_quick_match(self, info: Info, request_id: strawberry.ID) -> QuickMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return QuickMatchPayload(errors=problems)
        request, problems = attempt(lambda: services.cancel(user=user,
                                                            request_id=request_id))
        if problems:
            return QuickMatchPayload(errors=problems)
        return QuickMatchPayload(request=QuickMatchRequest.from_row(
            selectors.request_row(request)))
