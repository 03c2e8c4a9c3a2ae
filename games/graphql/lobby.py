"""GraphQL fields of the lobby: private matches, invitations, rematches. Mutations return
payloads with typed ``errors`` (REST's codes), as every mutation of the schema does."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.scalars import JSON
from strawberry.types import Info

from games.graphql.context import authenticated_user
from games.graphql.errors import attempt, signed_in
from games.graphql.mutations import BotSeatInput
from games.graphql.types import GameError, MatchType
from games.lobby import selectors, services
from games.matches import selectors as match_selectors
from games.matches.setup_checks import bot_seats_by_position


@strawberry.type(description="An invitation to take a seat.")
class Invitation:
    id: strawberry.ID
    match_id: strawberry.ID
    game: str
    players: int
    match_status: str
    inviter: str | None
    invitee: str
    position: int | None = strawberry.field(description="The seat kept for you, if any.")
    status: str = strawberry.field(description="pending, accepted, declined, withdrawn.")
    is_rematch: bool
    created_at: datetime
    responded_at: datetime | None

    @classmethod
    def from_row(cls, row: dict) -> Invitation:
        return cls(**{**row, "id": strawberry.ID(str(row["id"])),
                      "match_id": strawberry.ID(str(row["match_id"]))})


@strawberry.type
class LobbyMatchPayload:
    match: MatchType | None = None
    invite_code: str | None = strawberry.field(
        default=None, description="The private match's code (for its players only).")
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class InvitationsPayload:
    invitations: list[Invitation] = strawberry.field(default_factory=list)
    errors: list[GameError] = strawberry.field(default_factory=list)


def _payload(match_id, user) -> LobbyMatchPayload:
    match = match_selectors.get_match(match_id)
    return LobbyMatchPayload(match=match,
                             invite_code=selectors.private_info(match, user)["invite_code"])


@strawberry.type
class LobbyQueries:
    @strawberry.field(description="Your invitations, newest first (status: pending, "
                      "accepted, declined, withdrawn).")
    def my_invitations(self, info: Info, status: str | None = None) -> list[Invitation]:
        user = authenticated_user(info)
        if user is None:
            return []
        return [Invitation.from_row(row)
                for row in selectors.invitations_for(user, status=status)]


@strawberry.type
class LobbyMutations:
    @strawberry.mutation(description="Create a private (unlisted) match and invite people.")
    def create_private_match(
        self, info: Info, game: str, players: int, options: JSON | None = None,
        bot_seats: list[BotSeatInput] | None = None, creator_seat: int | None = None,
        invite: list[str] | None = None, players_read_spectator_chat: bool | None = None,
        time_control: JSON | None = None,
    ) -> LobbyMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return LobbyMatchPayload(errors=problems)
        bots, problems = attempt(lambda: bot_seats_by_position(
            (seat.position, seat.kind) for seat in bot_seats or []))
        if problems:
            for problem in problems:
                problem.field = "botSeats"
            return LobbyMatchPayload(errors=problems)
        created, problems = attempt(lambda: services.create_private_match(
            user=user, game=game, players=players, options=options, bot_seats=bots or None,
            creator_seat=creator_seat, invite=invite, time_control=time_control,
            players_read_spectator_chat=players_read_spectator_chat),
            overrides={"unknown_preset": "timeControl", "invalid_time_control": "timeControl"})
        if problems:
            return LobbyMatchPayload(errors=problems)
        return _payload(created[0].pk, user)

    @strawberry.mutation(description="Invite people to an open match you sit in or created.")
    def invite_to_match(self, info: Info, match_id: strawberry.ID,
                        usernames: list[str]) -> InvitationsPayload:
        user, problems = signed_in(info)
        if problems:
            return InvitationsPayload(errors=problems)
        invitations, problems = attempt(lambda: services.invite(
            user=user, match_id=match_id, usernames=usernames))
        if problems:
            return InvitationsPayload(errors=problems)
        return InvitationsPayload(invitations=[
            Invitation.from_row(selectors.invitation_row(row)) for row in invitations])

    @strawberry.mutation(description="Accept an invitation: take its seat.")
    def accept_invitation(self, info: Info, invitation_id: strawberry.ID) -> LobbyMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return LobbyMatchPayload(errors=problems)
        seat, problems = attempt(lambda: services.accept_invitation(
            user=user, invitation_id=invitation_id))
        return LobbyMatchPayload(errors=problems) if problems else _payload(seat.match_id, user)

    @strawberry.mutation(description="Decline an invitation (a declined rematch is aborted).")
    def decline_invitation(self, info: Info,
                           invitation_id: strawberry.ID) -> InvitationsPayload:
        user, problems = signed_in(info)
        if problems:
            return InvitationsPayload(errors=problems)
        invitation, problems = attempt(lambda: services.decline_invitation(
            user=user, invitation_id=invitation_id))
        if problems:
            return InvitationsPayload(errors=problems)
        return InvitationsPayload(
            invitations=[Invitation.from_row(selectors.invitation_row(invitation))])

    @strawberry.mutation(description="Take a seat of a private match with its invite code.")
    def join_by_invite_code(self, info: Info, invite_code: str,
                            position: int | None = None) -> LobbyMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return LobbyMatchPayload(errors=problems)
        seat, problems = attempt(lambda: services.join_by_code(
            user=user, invite_code=invite_code, position=position))
        return LobbyMatchPayload(errors=problems) if problems else _payload(seat.match_id, user)

    @strawberry.mutation(description="Propose (or find) the rematch of a finished match you "
                         "played: same game, options and seats; it starts when all accept.")
    def propose_rematch(self, info: Info, match_id: strawberry.ID) -> LobbyMatchPayload:
        user, problems = signed_in(info)
        if problems:
            return LobbyMatchPayload(errors=problems)
        match, problems = attempt(lambda: services.propose_rematch(user=user,
                                                                   match_id=match_id))
        return LobbyMatchPayload(errors=problems) if problems else _payload(match.pk, user)
