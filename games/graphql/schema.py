"""The GraphQL schema: queries, mutations and the live ``matchUpdates`` subscription.

Resolvers are thin: parse the arguments, call ``games.services`` (writes) or
``games.selectors`` (reads) with the caller, render. Errors keep REST's stable codes: in a
mutation payload's ``errors`` list, or in ``extensions.code`` of a query error.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Annotated

import strawberry
import strawberry_django
from rest_framework.authtoken.models import Token
from strawberry.extensions import MaxAliasesLimiter
from strawberry.scalars import JSON
from strawberry.types import Info

from accounts import services as account_services
from accounts.serializers import RegistrationSerializer, TokenRequestSerializer
from games import errors, selectors, services
from games.graphql.context import authenticated_user, current_user
from games.graphql.errors import ServiceErrorCodes, attempt
from games.graphql.subscriptions import match_updates
from games.graphql.types import (
    Game,
    GameError,
    LoggedMove,
    MatchPage,
    MatchStatusEnum,
    MatchType,
    MatchUpdate,
    MeType,
    Replay,
)

#: the largest page a client may ask for (REST's limit/offset, bounded so one request
#: cannot ask for the whole table)
MAX_PAGE_SIZE = 100
DEFAULT_PAGE_SIZE = 20


# -- queries ----------------------------------------------------------------------------------
@strawberry.type
class Query:
    @strawberry_django.field(description="The catalogue: every game with its option schema.")
    def games(self) -> list[Game]:
        return [Game.from_entry(entry) for entry in selectors.list_games()]

    @strawberry_django.field(description="One game of the catalogue (error unknown_game).")
    def game(self, game: str) -> Game:
        return Game.from_entry(selectors.get_game(game))

    @strawberry_django.field(
        description="Matches newest first, filtered and paginated as GET /api/v1/matches/ "
        f"(limit {DEFAULT_PAGE_SIZE} by default, at most {MAX_PAGE_SIZE})."
    )
    def matches(
        self,
        info: Info,
        game: str | None = None,
        status: MatchStatusEnum | None = None,  # type: ignore[valid-type]
        mine: bool = False,
        open_seats: Annotated[
            bool | None,
            strawberry.argument(
                description="true: open matches with a free seat; false: the others."
            ),
        ] = None,
        limit: int = DEFAULT_PAGE_SIZE,
        offset: int = 0,
    ) -> MatchPage:
        if not 1 <= limit <= MAX_PAGE_SIZE or offset < 0:
            raise errors.InvalidRequest(
                f"limit must be 1 to {MAX_PAGE_SIZE} and offset at least 0.",
                details={"limit": limit, "offset": offset},
            )
        matches = selectors.list_matches(
            user=current_user(info),
            game=game,
            status=status.value if status is not None else None,
            mine=mine,
            open_seats=open_seats,
        )
        return MatchPage(
            total_count=matches.count(),
            limit=limit,
            offset=offset,
            results=list(matches[offset : offset + limit]),
        )

    @strawberry_django.field(description="One match with the caller's view.")
    def match(self, id: strawberry.ID) -> MatchType:
        return selectors.get_match(id)

    @strawberry_django.field(
        description="The state after `ply` moves as the caller may see it (everything, "
        "with the full state, once the match has ended)."
    )
    def replay(self, info: Info, match_id: strawberry.ID, ply: int) -> Replay:
        match = selectors.get_match(match_id)
        body = selectors.replay_view(match, current_user(info), ply)
        return Replay(
            match_id=strawberry.ID(str(match.pk)), ply=body["ply"], seat=body["seat"],
            view=body["view"], state=body.get("state"),
        )

    @strawberry_django.field(description="The signed-in user, null when anonymous.")
    def me(self, info: Info) -> MeType | None:
        user = authenticated_user(info)
        return MeType.from_user(user) if user is not None else None


# -- mutation payloads ------------------------------------------------------------------------
@strawberry.type
class AuthPayload:
    token: str | None = None
    user: MeType | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class RevokeTokenPayload:
    revoked: bool = False
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class MatchPayload:
    match: MatchType | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class SubmitMovePayload:
    move: LoggedMove | None = None
    events: list[JSON] = strawberry.field(
        default_factory=list, description="The engine's events (public information)."
    )
    match: MatchType | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.input(description="A seat given to a bot at creation.")
class BotSeatInput:
    position: int
    kind: str = strawberry.field(description='A bot kind of the catalogue, e.g. "greedy".')


def _signed_in(info: Info) -> tuple[object | None, list[GameError]]:
    """The caller, or the not_authenticated error REST answers with 401 (nothing written)."""
    user = authenticated_user(info)
    if user is None:
        exc = errors.AuthenticationRequired()
        return None, [GameError(code=exc.code, message=exc.message)]
    return user, []


def _match_payload(match_id) -> MatchPayload:
    return MatchPayload(match=selectors.get_match(match_id))


# -- mutations --------------------------------------------------------------------------------
@strawberry.type
class Mutation:
    @strawberry_django.mutation(description="Sign up; returns the new user's API token.")
    def register(self, username: str, password: str, email: str = "") -> AuthPayload:
        serializer = RegistrationSerializer(
            data={"username": username, "password": password, "email": email}
        )

        def register_user():
            serializer.is_valid(raise_exception=True)
            return account_services.register_user(**serializer.validated_data)

        registered, problems = attempt(register_user)
        if problems:
            return AuthPayload(errors=problems)
        user, token = registered
        return AuthPayload(token=token.key, user=MeType.from_user(user))

    @strawberry_django.mutation(description="Exchange a username and password for the token.")
    def login(self, info: Info, username: str, password: str) -> AuthPayload:
        serializer = TokenRequestSerializer(data={"username": username, "password": password})

        def issue_token():
            serializer.is_valid(raise_exception=True)
            return account_services.issue_token(
                request=info.context.request if info.context.ws is None else None,
                **serializer.validated_data,
            )

        token, problems = attempt(issue_token)
        if problems:
            return AuthPayload(errors=problems)
        return AuthPayload(token=token.key, user=MeType.from_user(token.user))

    @strawberry_django.mutation(
        description="Revoke the token this request was authenticated with."
    )
    def revoke_token(self, info: Info) -> RevokeTokenPayload:
        _user, problems = _signed_in(info)
        token = info.context.auth  # the DRF Token for token auth; None for a session
        if problems or not isinstance(token, Token):
            exc = errors.AuthenticationRequired("Send the token to revoke as `Authorization: "
                                                "Token <key>`.")
            return RevokeTokenPayload(errors=[GameError(code=exc.code, message=exc.message)])
        account_services.revoke_token(token)
        return RevokeTokenPayload(revoked=True)

    @strawberry_django.mutation(description="Create a match; you take a seat unless told not to.")
    def create_match(
        self,
        info: Info,
        game: str,
        players: int,
        options: JSON | None = None,
        bot_seats: list[BotSeatInput] | None = None,
        take_seat: bool = True,
        creator_seat: int | None = None,
    ) -> MatchPayload:
        user, problems = _signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        seats_for_bots = None
        if bot_seats is not None:
            seats_for_bots = {}
            for seat in bot_seats:
                if seat.position in seats_for_bots:
                    exc = errors.InvalidSeat(
                        "Each bot seat position may appear once.",
                        details={"position": seat.position},
                    )
                    return MatchPayload(errors=[GameError(
                        code=exc.code, message=exc.message, field="botSeats",
                        details=exc.details)])
                seats_for_bots[seat.position] = seat.kind

        match, problems = attempt(
            lambda: services.create_match(
                user=user, game=game, players=players, options=options,
                bot_seats=seats_for_bots, take_seat=take_seat, creator_seat=creator_seat,
            )
        )
        for problem in problems:
            # A bad position may be the creator's seat or a bot's: the details name it.
            if problem.code in ("invalid_seat", "seat_taken"):
                position = (problem.details or {}).get("position")
                is_creators = creator_seat is not None and position == creator_seat
                problem.field = "creatorSeat" if is_creators else "botSeats"
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(description="Take a seat (the lowest free one by default).")
    def join_match(
        self, info: Info, match_id: strawberry.ID, position: int | None = None
    ) -> MatchPayload:
        user, problems = _signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        seat, problems = attempt(
            lambda: services.join_match(user=user, match_id=match_id, position=position)
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(seat.match_id)

    @strawberry_django.mutation(description="Give up your seat while the match is open.")
    def leave_match(self, info: Info, match_id: strawberry.ID) -> MatchPayload:
        user, problems = _signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        _, problems = attempt(lambda: services.leave_match(user=user, match_id=match_id))
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match_id)

    @strawberry_django.mutation(
        description="Start the match now (creator or admin); `fillWith` seats a bot of that "
        "kind in every open seat."
    )
    def start_match(
        self, info: Info, match_id: strawberry.ID, fill_with: str | None = None
    ) -> MatchPayload:
        user, problems = _signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: services.start_match(user=user, match_id=match_id, fill_with=fill_with),
            overrides={"unknown_bot": "fillWith"},
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(description="Abort the match (creator or admin).")
    def abort_match(
        self, info: Info, match_id: strawberry.ID, reason: str = ""
    ) -> MatchPayload:
        user, problems = _signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: services.abort_match(user=user, match_id=match_id, reason=reason[:200])
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(
        description="Submit a move for your seat. With `expectedPly`, a match that has "
        "moved on answers stale_ply instead of applying the move."
    )
    def submit_move(
        self,
        info: Info,
        match_id: strawberry.ID,
        move: JSON,
        expected_ply: int | None = None,
    ) -> SubmitMovePayload:
        user, problems = _signed_in(info)
        if problems:
            return SubmitMovePayload(errors=problems)
        submitted, problems = attempt(
            lambda: services.submit_move(
                match_id=match_id, user=user, move=move, expected_ply=expected_ply
            )
        )
        if problems:
            return SubmitMovePayload(errors=problems)
        logged = submitted.move
        return SubmitMovePayload(
            # the mover's own move, in full, as REST returns it
            move=LoggedMove(
                ply=logged.ply, seat=logged.seat, move=logged.move, created_at=logged.created_at
            ),
            events=list(submitted.events),
            match=selectors.get_match(submitted.match.pk),
        )


# -- subscriptions ----------------------------------------------------------------------------
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
        async for update in match_updates(info, match_id, since):
            yield update


#: A replay or a move log costs real work: one operation may not repeat them by the
#: hundred through aliases. (Depth needs no limit: the schema has no cycles.)
MAX_ALIASES = 20

schema = strawberry.Schema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        ServiceErrorCodes,
    ],
)
