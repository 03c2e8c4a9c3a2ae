"""REST endpoints of the games app: parse, call a service or selector, render.

No game logic here: writes go through ``games.services`` and ``games.matches``, reads
through ``games.selectors``; their errors carry the stable codes the API returns.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from config.api_views import ApiView
from games import errors, polling, selectors, services
from games import serializers as s
from games.api_common import MATCH_ID, error_responses, parse_body, represent
from games.api_examples import (
    CREATE_MATCH_EXAMPLES,
    ERROR_EXAMPLES,
    EVENTS_EXAMPLE,
    GAME_EXAMPLE,
    LEGAL_MOVES_EXAMPLE,
    MATCH_DETAIL_EXAMPLE,
    MOVE_LOG_EXAMPLE,
    REPLAY_EXAMPLE,
    RESULT_EXAMPLE,
    SUBMIT_MOVE_EXAMPLES,
)
from games.clocks import services as clock_services
from games.matches import services as match_services


def _flag(request, name: str) -> bool | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    value = raw.strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise errors.InvalidRequest(f"{name} must be true or false.", details={name: raw[:20]})


class MatchPagination(LimitOffsetPagination):
    """DRF's limit/offset pages, but a bad ``limit`` or ``offset`` is a 400
    ``invalid_request`` instead of being ignored, and a huge one never reaches the
    database (it used to overflow PostgreSQL's bigint: a 500)."""

    default_limit = selectors.DEFAULT_PAGE_SIZE
    max_limit = selectors.MAX_PAGE_SIZE

    def _bounds(self, request) -> tuple[int, int]:
        params = request.query_params
        return selectors.parse_page(params.get(self.limit_query_param),
                                    params.get(self.offset_query_param))

    def get_limit(self, request) -> int:
        return self._bounds(request)[0]

    def get_offset(self, request) -> int:
        return self._bounds(request)[1]


def _detail(match, user) -> dict:
    return represent(s.MatchDetailSerializer, selectors.match_detail(match, user))


def _polled(request, match_id: str, build) -> Response:
    """A GET that pollers repeat: with ``If-None-Match`` naming the current version it
    answers 304 from one narrow query (games.polling); otherwise ``build(match)`` with the
    version's ETag. ``private, no-cache``: each reader has their own view, and a cache
    must ask again every time."""
    if request.META.get("HTTP_IF_NONE_MATCH"):
        tag = polling.etag(request, polling.version_of(match_id))
        if polling.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=_poll_headers(tag))
    match = selectors.get_match(match_id)
    tag = polling.etag(request, polling.version_of_loaded(match))
    return Response(build(match), headers=_poll_headers(tag))


def _poll_headers(tag: str) -> dict:
    return {"ETag": tag, "Cache-Control": "private, no-cache"}


#: documented on every polled GET
CONDITIONAL = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER,
    description="The ETag of your last answer: 304 Not Modified (no body) while the match "
    "has not changed for you.",
)


# -- the catalogue ----------------------------------------------------------------------------
class GameListView(ApiView):
    @extend_schema(
        operation_id="list_games",
        summary="The games this service plays",
        responses={200: s.GameSerializer(many=True), **error_responses()},
        examples=[GAME_EXAMPLE],
        tags=["games"],
    )
    def get(self, request):
        return Response(s.GameSerializer(selectors.list_games(), many=True).data)


class GameDetailView(ApiView):
    @extend_schema(
        operation_id="get_game",
        summary="One game: its option schema, player counts and bot kinds",
        responses={200: s.GameSerializer, **error_responses(404)},
        examples=[GAME_EXAMPLE, ERROR_EXAMPLES["unknown_game"]],
        tags=["games"],
    )
    def get(self, request, game: str):
        return Response(s.GameSerializer(selectors.get_game(game)).data)


# -- the lobby --------------------------------------------------------------------------------
class MatchListView(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    query_params = ("game", "status", "mine", "open", "my_turn", "limit", "offset")

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
            OpenApiParameter("limit", int, description=f"1 to {selectors.MAX_PAGE_SIZE}, "
                             f"default {selectors.DEFAULT_PAGE_SIZE}."),
            OpenApiParameter("offset", int, description="0 or more, default 0."),
        ],
        responses={200: s.MatchPageSerializer, **error_responses(400)},
        tags=["matches"],
    )
    def get(self, request):
        matches = selectors.list_matches(
            user=request.user,
            game=request.query_params.get("game") or None,
            status=request.query_params.get("status") or None,
            mine=bool(_flag(request, "mine")),
            open_seats=_flag(request, "open"),
            my_turn=_flag(request, "my_turn"),
        )
        paginator = MatchPagination()
        page = paginator.paginate_queryset(matches, request, view=self)
        rows = [selectors.match_summary(match, request.user) for match in page]
        return paginator.get_paginated_response(s.MatchSummarySerializer(rows, many=True).data)

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
            bot_seats = _bot_seats_by_position(bot_seats)
        match = match_services.create_match(
            user=request.user,
            game=data["game"],
            players=data["players"],
            options=data["options"],
            bot_seats=bot_seats,
            take_seat=data["take_seat"],
            creator_seat=data["creator_seat"],
            time_control=data["time_control"],
        )
        match = selectors.get_match(match.pk)
        return Response(_detail(match, request.user), status=status.HTTP_201_CREATED)


def _bot_seats_by_position(bot_seats: dict) -> dict:
    """``{"1": "greedy"}`` as ``{1: "greedy"}``; keys that are not numbers stay as they are
    for the service to refuse. Two keys naming one seat ("1", " 1") are refused here, before
    the dict would silently keep only one of them."""
    by_position: dict = {}
    for key, kind in bot_seats.items():
        number = selectors.whole_number(key)
        position = key if number is None else number
        if position in by_position:
            raise errors.InvalidSeat("Each bot seat position may appear once.",
                                     details={"position": position})
        by_position[position] = kind
    return by_position


class MatchDetailView(ApiView):
    @extend_schema(
        operation_id="get_match",
        summary="A match, with the game as you may see it",
        parameters=[MATCH_ID, CONDITIONAL],
        responses={200: s.MatchDetailSerializer, 304: None, **error_responses(404)},
        examples=[MATCH_DETAIL_EXAMPLE, ERROR_EXAMPLES["match_not_found"]],
        tags=["matches"],
    )
    def get(self, request, match_id: str):
        return _polled(request, match_id, lambda match: _detail(match, request.user))


class _MatchActionView(ApiView):
    permission_classes = [IsAuthenticated]

    def _respond(self, request, match_id) -> Response:
        return Response(_detail(selectors.get_match(match_id), request.user))


class JoinMatchView(_MatchActionView):
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
        seat = match_services.join_match(user=request.user, match_id=match_id,
                                         position=data["position"])
        return self._respond(request, seat.match_id)


class LeaveMatchView(_MatchActionView):
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
class LegalMovesView(ApiView):
    @extend_schema(
        operation_id="get_legal_moves",
        summary="Your seat's legal moves now",
        parameters=[MATCH_ID, CONDITIONAL],
        responses={200: s.LegalMovesSerializer, 304: None, **error_responses(403, 404)},
        examples=[LEGAL_MOVES_EXAMPLE, ERROR_EXAMPLES["not_seated"]],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        return _polled(request, match_id, lambda match: represent(
            s.LegalMovesSerializer, selectors.legal_moves_for(match, request.user)))


class MovesView(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(
        operation_id="list_moves",
        summary="The move log (redacted for you while the match runs)",
        parameters=[MATCH_ID],
        responses={200: s.LoggedMoveSerializer(many=True), **error_responses(404)},
        examples=[MOVE_LOG_EXAMPLE],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        match = selectors.get_match(match_id)
        return Response(s.LoggedMoveSerializer(selectors.move_log(match, request.user),
                                               many=True).data)

    @extend_schema(
        operation_id="submit_move",
        summary="Submit a move for your seat",
        parameters=[MATCH_ID],
        request=s.SubmitMoveRequestSerializer,
        responses={201: s.SubmittedMoveSerializer, **error_responses(400, 401, 403, 404, 409)},
        examples=SUBMIT_MOVE_EXAMPLES,
        tags=["play"],
    )
    def post(self, request, match_id: str):
        data = parse_body(s.SubmitMoveRequestSerializer, request)
        submitted = services.submit_move(
            match_id=match_id, user=request.user, move=data["move"],
            expected_ply=data["expected_ply"],
        )
        # Answered from what the service holds (no read after the commit: issue 14).
        body = {
            "ply": submitted.move.ply,
            "seat": submitted.move.seat,
            "move": submitted.move.move,
            "events": selectors.events_for(submitted.match, submitted.events,
                                           submitted.move.seat),
            "match": selectors.match_detail(submitted.match, request.user,
                                            state=submitted.state),
        }
        return Response(represent(s.SubmittedMoveSerializer, body),
                        status=status.HTTP_201_CREATED)


class ReplayView(ApiView):
    query_params = ("ply",)
    @extend_schema(
        operation_id="get_replay",
        summary="The position after ply N (default the latest), as you may see it",
        parameters=[MATCH_ID, OpenApiParameter("ply", int, description="0 .. the match's "
                                               "ply; default the latest.")],
        responses={200: s.ReplaySerializer, **error_responses(400, 404, 409)},
        examples=[REPLAY_EXAMPLE, ERROR_EXAMPLES["invalid_ply"]],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        match = selectors.get_match(match_id)
        ply = request.query_params.get("ply")
        return Response(s.ReplaySerializer(selectors.replay_view(match, request.user, ply)).data)


class ResultView(ApiView):
    @extend_schema(
        operation_id="get_result",
        summary="Final scores, ranks, tie-breaks, end reason and breakdown",
        parameters=[MATCH_ID],
        responses={200: s.ResultSerializer, **error_responses(404, 409)},
        examples=[RESULT_EXAMPLE, ERROR_EXAMPLES["not_finished"]],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        match = selectors.get_match(match_id)
        return Response(s.ResultSerializer(selectors.match_result(match)).data)


class EventsView(ApiView):
    query_params = ("since",)

    @extend_schema(
        operation_id="get_events",
        summary="For polling: moves and their events since a ply, the status and your view",
        parameters=[MATCH_ID, OpenApiParameter("since", int, description="Default 0."),
                    CONDITIONAL],
        responses={200: s.EventsSerializer, 304: None, **error_responses(400, 404)},
        examples=[EVENTS_EXAMPLE],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        since = request.query_params.get("since", "0")
        return _polled(request, match_id, lambda match: represent(
            s.EventsSerializer, selectors.match_events(match, request.user, since=since)))
