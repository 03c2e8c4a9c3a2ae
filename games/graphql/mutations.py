"""Mutations: accounts (register, login, revoke) and the match lobby and play.

Each calls one service with the caller and returns a payload whose ``errors`` list holds
typed ``GameError`` values with REST's stable codes (Saleor style). The services are
atomic: a mutation that returns errors has written nothing.
"""

from __future__ import annotations

import strawberry
import strawberry_django
from django.utils.translation import gettext as _
from rest_framework.authtoken.models import Token
from strawberry.scalars import JSON
from strawberry.types import Info

from accounts import services as account_services
from accounts.serializers import RegistrationSerializer, TokenRequestSerializer
from games.clocks import services as clock_services
from games.graphql.errors import attempt, signed_in
from games.graphql.play_types import LoggedMove
from games.graphql.throttling import caller_address
from games.graphql.types import GameError, MatchType, MeType
from games.lobby import services as lobby_services
from games.matches import errors, selectors, services
from games.matches import services as match_services
from games.matches.setup_checks import bot_seats_by_position
from infra.observability import metrics


# -- payloads ---------------------------------------------------------------------------------
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
        default_factory=list,
        description="The engine's events of this move, as you may see them (your own "
        "secrets included, other seats' replaced by public stand-ins).",
    )
    match: MatchType | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.input(description="A seat given to a bot at creation.")
class BotSeatInput:
    position: int
    kind: str = strawberry.field(description='A bot kind of the catalogue, e.g. "greedy".')


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
                address=caller_address(info.context),
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
        _user, problems = signed_in(info)
        token = info.context.auth  # the DRF Token for token auth; None for a session
        if problems or not isinstance(token, Token):
            exc = errors.AuthenticationRequired(_("Send the token to revoke as `Authorization: "
                                                  "Token <key>`."))
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
        time_control: JSON | None = None,
        players_read_spectator_chat: bool | None = None,
    ) -> MatchPayload:
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        seats_for_bots, problems = attempt(lambda: None if bot_seats is None else (
            bot_seats_by_position((seat.position, seat.kind) for seat in bot_seats)))
        if problems:
            for problem in problems:
                problem.field = "botSeats"
            return MatchPayload(errors=problems)

        match, problems = attempt(
            lambda: match_services.create_match(
                user=user, game=game, players=players, options=options,
                bot_seats=seats_for_bots, take_seat=take_seat, creator_seat=creator_seat,
                time_control=time_control,
                players_read_spectator_chat=players_read_spectator_chat,
            ),
            overrides={"unknown_preset": "timeControl", "invalid_time_control": "timeControl"},
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
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        seat, problems = attempt(
            lambda: lobby_services.join_match(user=user, match_id=match_id, position=position)
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(seat.match_id)

    @strawberry_django.mutation(description="Give up your seat while the match is open.")
    def leave_match(self, info: Info, match_id: strawberry.ID) -> MatchPayload:
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        _, problems = attempt(lambda: match_services.leave_match(user=user, match_id=match_id))
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
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: match_services.start_match(user=user, match_id=match_id, fill_with=fill_with),
            overrides={"unknown_bot": "fillWith"},
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(
        description="Abort the match (its creator before the first move, or an admin).")
    def abort_match(
        self, info: Info, match_id: strawberry.ID, reason: str = ""
    ) -> MatchPayload:
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: match_services.abort_match(user=user, match_id=match_id, reason=reason[:200]),
            overrides={"invalid_request": "reason"},
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(
        description="Resign your seat: it ranks last. Two players: the match ends at once; "
        "more: a bot plays the seat out. `seat`, if given, must be yours."
    )
    def resign_match(
        self, info: Info, match_id: strawberry.ID, seat: int | None = None
    ) -> MatchPayload:
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: clock_services.resign(user=user, match_id=match_id, seat=seat),
            overrides={"invalid_seat": "seat", "not_your_seat": "seat"},
        )
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(
        description="Take your seat back from the bot that took it over (timeout, admin)."
    )
    def reclaim_seat(self, info: Info, match_id: strawberry.ID) -> MatchPayload:
        user, problems = signed_in(info)
        if problems:
            return MatchPayload(errors=problems)
        match, problems = attempt(
            lambda: clock_services.reclaim_seat(user=user, match_id=match_id))
        if problems:
            return MatchPayload(errors=problems)
        return _match_payload(match.pk)

    @strawberry_django.mutation(
        description="Submit a move for your seat. With `expectedPly`, a match that has "
        "moved on answers stale_ply instead of applying the move (in a simultaneous phase "
        "any ply since your choice became due is accepted: docs/api.md)."
    )
    def submit_move(
        self,
        info: Info,
        match_id: strawberry.ID,
        move: JSON,
        expected_ply: int | None = None,
    ) -> SubmitMovePayload:
        user, problems = signed_in(info)
        if problems:
            return SubmitMovePayload(errors=problems)
        submitted, problems = attempt(
            lambda: services.submit_move(
                match_id=match_id, user=user, move=move, expected_ply=expected_ply
            )
        )
        if problems:
            return SubmitMovePayload(errors=problems)
        metrics.app_move(metrics.app_label(user, info.context.auth))
        logged = submitted.move
        events = selectors.events_for(submitted.match, submitted.events, logged.seat)
        return SubmitMovePayload(
            # the mover's own move, in full, as REST returns it
            move=LoggedMove(
                ply=logged.ply, seat=logged.seat, move=logged.move, events=events,
                created_at=logged.created_at,
            ),
            events=events,
            # the match as the service left it, seats and creator loaded: no second read
            match=submitted.match,
        )
