"""REST endpoints of the lobby: private matches, invitations, rematches. Thin: parse,
call ``games.lobby.services`` / ``selectors``, answer with the match as you see it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.lobby import serializers as ls
from games.api.matches import serializers as s
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body
from games.lobby import selectors, services
from games.matches import selectors as match_selectors
from games.matches.setup_checks import bot_seats_by_position
from infra.api_views import PUBLIC, ApiView
from infra.paging import PAGE_PARAMETERS, page_of, paged, whole

INVITATION_ID = OpenApiParameter("invitation_id", int, OpenApiParameter.PATH)




def _match_body(match_id, user) -> dict:
    match = match_selectors.get_match(match_id)
    body = dict(s.MatchDetailSerializer(match_selectors.match_detail(match, user)).data)
    body["lobby"] = selectors.private_info(match, user)
    return body


class PrivateMatchListView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        summary="Create a private (unlisted) match and invite people to it",
        operation_id="create_private_match",
        request=ls.CreatePrivateMatchRequestSerializer,
        responses={201: ls.LobbyMatchSerializer, **error_responses(400, 409)},
        tags=["lobby"],
    )
    def post(self, request):
        data = parse_body(ls.CreatePrivateMatchRequestSerializer, request)
        bot_seats = data["bot_seats"]
        if isinstance(bot_seats, dict):
            bot_seats = bot_seats_by_position(bot_seats.items())
        match, _code = services.create_private_match(
            user=request.user, game=data["game"], players=data["players"],
            options=data["options"], bot_seats=bot_seats, creator_seat=data["creator_seat"],
            invite=data["invite"], time_control=data["time_control"],
            players_read_spectator_chat=data["players_read_spectator_chat"],
        )
        return Response(_match_body(match.pk, request.user), status=status.HTTP_201_CREATED)


class JoinByCodeView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        summary="Take a seat of a private match with its invite code",
        operation_id="join_by_invite_code",
        request=ls.JoinByCodeRequestSerializer,
        responses={200: ls.LobbyMatchSerializer, **error_responses(400, 404, 409)},
        tags=["lobby"],
    )
    def post(self, request):
        data = parse_body(ls.JoinByCodeRequestSerializer, request)
        seat = services.join_by_code(user=request.user, invite_code=data["invite_code"],
                                     position=data["position"])
        return Response(_match_body(seat.match_id, request.user))


class MatchLobbyView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        summary="Is the match private; its invite code (for its players); its rematch",
        operation_id="get_match_lobby",
        parameters=[MATCH_ID],
        responses={200: ls.LobbyInfoSerializer, **error_responses(404)},
        tags=["lobby"],
    )
    def get(self, request, match_id: str):
        match = match_selectors.get_match(match_id)
        return Response(selectors.private_info(match, request.user))


class MatchInvitationsView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        summary="Invite people to an open match you sit in or created",
        operation_id="invite_players",
        parameters=[MATCH_ID],
        request=ls.InviteRequestSerializer,
        responses={201: page_of(ls.InvitationSerializer),
                   **error_responses(400, 403, 404, 409)},
        tags=["lobby"],
    )
    def post(self, request, match_id: str):
        data = parse_body(ls.InviteRequestSerializer, request)
        invitations = services.invite(user=request.user, match_id=match_id,
                                      usernames=data["usernames"])
        return Response(whole(request, map(selectors.invitation_row, invitations)),
                        status=status.HTTP_201_CREATED)


class MyInvitationsView(ApiView):
    query_params = ("status", "limit", "offset")
    permission_classes = [IsAuthenticated]
    required_scopes = {"GET": "account:read"}

    @extend_schema(
        summary="Your invitations, newest first",
        operation_id="list_my_invitations",
        parameters=[OpenApiParameter("status", str, description="pending, accepted, "
                                     "declined or withdrawn."), *PAGE_PARAMETERS],
        responses={200: page_of(ls.InvitationSerializer), **error_responses(400)},
        tags=["lobby"],
    )
    def get(self, request):
        return Response(paged(request, selectors.invitations_of(
            request.user, status=request.query_params.get("status") or None),
            selectors.invitation_row))


class AcceptInvitationView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(summary="Accept an invitation: take its seat",
                   operation_id="accept_invitation", parameters=[INVITATION_ID],
                   request=None,
                   responses={200: ls.LobbyMatchSerializer, **error_responses(404, 409)},
                   tags=["lobby"])
    def post(self, request, invitation_id: str):
        seat = services.accept_invitation(user=request.user, invitation_id=invitation_id)
        return Response(_match_body(seat.match_id, request.user))


class DeclineInvitationView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(summary="Decline an invitation (a declined rematch is aborted)",
                   operation_id="decline_invitation",
                   parameters=[INVITATION_ID], request=None,
                   responses={200: ls.InvitationSerializer, **error_responses(404, 409)},
                   tags=["lobby"])
    def post(self, request, invitation_id: str):
        invitation = services.decline_invitation(user=request.user,
                                                 invitation_id=invitation_id)
        return Response(selectors.invitation_row(invitation))


class RematchView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        summary="Propose (or find) the rematch of a finished match you played",
        operation_id="propose_rematch",
        parameters=[MATCH_ID], request=None,
        responses={201: ls.LobbyMatchSerializer, **error_responses(403, 404, 409)},
        tags=["lobby"],
    )
    def post(self, request, match_id: str):
        match = services.propose_rematch(user=request.user, match_id=match_id)
        return Response(_match_body(match.pk, request.user), status=status.HTTP_201_CREATED)
