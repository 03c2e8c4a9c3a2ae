"""GraphQL fields of leaving: ``myData`` (the export of games/leaving/export.py) and
``deleteAccount`` (accounts/erasure.py), the same as ``GET /api/v1/me/export`` and
``DELETE /api/v1/me``."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from accounts import erasure
from games.graphql.context import authenticated_user
from games.graphql.errors import attempt, signed_in
from games.graphql.throttling import caller_address
from games.graphql.types import GameError
from games.leaving.export import MAX_GRAPHQL_RECORDS, personal_data
from games.matches import errors


@strawberry.type
class DeleteAccountPayload:
    deleted: bool = False
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class LeavingQueries:
    @strawberry.field(description="Everything held on you, as one JSON document (REST: GET "
                      "/api/v1/me/export): profile, ratings, matches, invitations, and a page "
                      f"of at most {MAX_GRAPHQL_RECORDS} game records (`records_next_after` "
                      "names the next page's `recordsAfter`).")
    def my_data(self, info: Info, records_after: strawberry.ID | None = None,
                records_limit: int = MAX_GRAPHQL_RECORDS) -> JSON:
        user = authenticated_user(info)
        if user is None:
            raise errors.AuthenticationRequired()
        return personal_data(user, records_after=records_after, records_limit=records_limit,
                             max_records=MAX_GRAPHQL_RECORDS)


@strawberry.type
class LeavingMutations:
    @strawberry.mutation(description="Erase your account, confirmed with your password (REST: "
                         "DELETE /api/v1/me). Matches, records and ratings stay under a "
                         "tombstone name; your token is revoked and your sockets close.")
    def delete_account(self, info: Info, password: str) -> DeleteAccountPayload:
        user, problems = signed_in(info)
        if problems:
            return DeleteAccountPayload(errors=problems)

        def erase() -> None:
            erasure.confirm_password(user, password, address=caller_address(info.context))
            erasure.erase_account(user)

        _nothing, problems = attempt(erase)
        return DeleteAccountPayload(deleted=not problems, errors=problems)
