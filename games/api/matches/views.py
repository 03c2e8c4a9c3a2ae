"""REST for matches: listing, creating, reading one, and the actions on it (join, leave,
start, abort, resign, reclaim). Parse, call a service or selector, render: writes go
through ``games.matches.services`` (and the lobby's join, the clocks' resign and
reclaim), reads through the selectors; their errors carry the API's stable codes."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from games.api.examples import (
    CREATE_MATCH_EXAMPLES,
    ERROR_EXAMPLES,
    MATCH_DETAIL_EXAMPLE,
)
from games.api.matches import serializers as s
from games.api.matches.polled import CONDITIONAL, polled_response
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body, represent
from games.clocks import services as clock_services
from games.lobby import selectors as lobby_selectors
from games.lobby import services as lobby_services
from games.mail import looks
from games.matches import parsing, selectors
from games.matches import services as match_services
from games.matches.setup_checks import bot_seats_by_position
from infra.api_views import PUBLIC, ApiView
from infra.paging import PAGE_PARAMETERS, page_of, paged


def _flag(request, name: str) -> bool | None:
    return parsing.parse_flag(request.query_params.get(name), name)


def detail_body(match, user) -> dict:
    return represent(s.MatchDetailSerializer, selectors.match_detail(match, user))


class MatchListView(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    query_params = ("game", "status", "mine", "open", "my_turn", "limit", "offset")
    required_scopes = {"GET": PUBLIC, "POST": "match:write"}

    @extend_schema(
        summary="List matches",
        operation_id="list_matches",
        parameters=[
            OpenApiParameter("game", str, description='"han" or "hansa".'),
            OpenApiParameter("status", str, description="open, active, scoring, finished, "
                             "aborted."),
            OpenApiParameter("mine", bool, description="Only matches you sit in or created."),
            OpenApiParameter("open", bool, description="Only open matches with a free seat."),
            OpenApiParameter("my_turn", bool, description="true: only active matches where "
                             "your seat owes a decision now (see each row's to_act)."),
            *PAGE_PARAMETERS,
        ],
        responses={200: page_of(s.MatchSummarySerializer), **error_responses(400)},
        tags=["matches"],
    )
    def get(self, request):
        matches = lobby_selectors.list_matches(
            user=request.user,
            game=request.query_params.get("game") or None,
            status=request.query_params.get("status") or None,
            mine=bool(_flag(request, "mine")),
            open_seats=_flag(request, "open"),
            my_turn=_flag(request, "my_turn"),
        )
        return Response(paged(request, matches, lambda match: represent(
            s.MatchSummarySerializer, selectors.match_summary(match, request.user))))

    @extend_schema(
        operation_id="create_match",
        summary="Create a match",
        request=s.CreateMatchRequestSerializer,
        responses={201: s.MatchDetailSerializer, **error_responses(400, 401, 409)},
        examples=CREATE_MATCH_EXAMPLES,
        tags=["matches"],
    )
    def post(self, request):
        data = parse_body(s.CreateMatchRequestSerializer, request)
        bot_seats = data["bot_seats"]
        if isinstance(bot_seats, dict):  # JSON object keys are strings: positions
            bot_seats = bot_seats_by_position(bot_seats.items())
        match = match_services.create_match(
            user=request.user,
            game=data["game"],
            players=data["players"],
            options=data["options"],
            bot_seats=bot_seats,
            take_seat=data["take_seat"],
            creator_seat=data["creator_seat"],
            time_control=data["time_control"],
            players_read_spectator_chat=data["players_read_spectator_chat"],
        )
        match = selectors.get_match(match.pk)
        return Response(detail_body(match, request.user), status=status.HTTP_201_CREATED)


def _shown(match, user) -> dict:
    """The match as ``user`` may see it; that a seated player looked counts for "your
    turn" by mail (games/mail/looks.py: a write only when this reader's ply is new, and
    only while anyone has a confirmed address; a spectator's look is not kept)."""
    looks.saw_seated(match, user)
    return detail_body(match, user)


class MatchDetailView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="get_match",
        summary="A match, with the game as you may see it",
        parameters=[MATCH_ID, CONDITIONAL],
        responses={200: s.MatchDetailSerializer, 304: None, **error_responses(404)},
        examples=[MATCH_DETAIL_EXAMPLE, ERROR_EXAMPLES["match_not_found"]],
        tags=["matches"],
    )
    def get(self, request, match_id: str):
        return polled_response(request, match_id, lambda match: _shown(match, request.user))


class _MatchActionView(ApiView):
    permission_classes = [IsAuthenticated]

    def _respond(self, request, match_id) -> Response:
        return Response(detail_body(selectors.get_match(match_id), request.user))


class JoinMatchView(_MatchActionView):
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        operation_id="join_match",
        summary="Take a seat (the match starts when the last seat is taken)",
        parameters=[MATCH_ID],
        request=s.JoinRequestSerializer,
        responses={200: s.MatchDetailSerializer, **error_responses(400, 401, 404, 409)},
        examples=[ERROR_EXAMPLES["match_full"]],
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        data = parse_body(s.JoinRequestSerializer, request)
        seat = lobby_services.join_match(user=request.user, match_id=match_id,
                                         position=data["position"])
        return self._respond(request, seat.match_id)


class LeaveMatchView(_MatchActionView):
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        operation_id="leave_match",
        summary="Give up your seat while the match is open",
        parameters=[MATCH_ID],
        request=None,
        responses={200: s.MatchDetailSerializer, **error_responses(401, 403, 404, 409)},
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        match_services.leave_match(user=request.user, match_id=match_id)
        return self._respond(request, match_id)


class StartMatchView(_MatchActionView):
    required_scopes = {"POST": "match:write"}

    @extend_schema(
        operation_id="start_match",
        summary="Start the match now (creator or admin)",
        parameters=[MATCH_ID],
        request=s.StartRequestSerializer,
        responses={200: s.MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409)},
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        data = parse_body(s.StartRequestSerializer, request)
        match_services.start_match(user=request.user, match_id=match_id,
                                   fill_with=data["fill_with"])
        return self._respond(request, match_id)


class AbortMatchView(_MatchActionView):
    required_scopes = {"POST": "match:write"}
    # the one free text of the API: a note to the players may span lines
    multiline_fields = ("reason",)

    @extend_schema(
        operation_id="abort_match",
        summary="Abort the match (creator or admin)",
        parameters=[MATCH_ID],
        request=s.AbortRequestSerializer,
        responses={200: s.MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409)},
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        data = parse_body(s.AbortRequestSerializer, request)
        match_services.abort_match(user=request.user, match_id=match_id, reason=data["reason"])
        return self._respond(request, match_id)


class ResignView(_MatchActionView):
    required_scopes = {"POST": "match:play"}

    @extend_schema(
        operation_id="resign_seat",
        summary="Resign your seat: it ranks last (2 players: the match ends; more: a bot "
        "plays it out)",
        parameters=[MATCH_ID],
        request=s.ResignRequestSerializer,
        responses={200: s.MatchDetailSerializer, **error_responses(400, 401, 403, 404, 409)},
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        data = parse_body(s.ResignRequestSerializer, request)
        clock_services.resign(user=request.user, match_id=match_id, seat=data["seat"])
        return self._respond(request, match_id)


class ReclaimView(_MatchActionView):
    required_scopes = {"POST": "match:play"}

    @extend_schema(
        operation_id="reclaim_seat",
        summary="Take back your seat from the bot that took it over",
        parameters=[MATCH_ID],
        request=None,
        responses={200: s.MatchDetailSerializer, **error_responses(401, 404, 409)},
        tags=["matches"],
    )
    def post(self, request, match_id: str):
        clock_services.reclaim_seat(user=request.user, match_id=match_id)
        return self._respond(request, match_id)


# -- playing ----------------------------------------------------------------------------------
