"""REST for a match's play and its record: legal moves, submitting a move and the log,
replays, the result and the events. Moves enter through ``games.matches.services``
(``submit_move``); everything read is shown as the reader may see it."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from games.api.examples import (
    ERROR_EXAMPLES,
    EVENTS_EXAMPLE,
    LEGAL_MOVES_EXAMPLE,
    MOVE_LOG_EXAMPLE,
    REPLAY_EXAMPLE,
    RESULT_EXAMPLE,
    SUBMIT_MOVE_EXAMPLES,
)
from games.api.matches import serializers as s
from games.api.matches.polled import CONDITIONAL, polled_response
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body, represent
from games.matches import selectors, services
from infra.api_views import PUBLIC, ApiView
from infra.observability import metrics
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, bounds, envelope, page_of


class LegalMovesView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="get_legal_moves",
        summary="Your seat's legal moves now",
        parameters=[MATCH_ID, CONDITIONAL],
        responses={200: s.LegalMovesSerializer, 304: None, **error_responses(403, 404)},
        examples=[LEGAL_MOVES_EXAMPLE, ERROR_EXAMPLES["not_seated"]],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        return polled_response(request, match_id, lambda match: represent(
            s.LegalMovesSerializer, selectors.legal_moves_for(match, request.user)))


class MovesView(ApiView):
    permission_classes = [IsAuthenticatedOrReadOnly]
    query_params = PAGE_QUERY
    required_scopes = {"GET": PUBLIC, "POST": "match:play"}

    @extend_schema(
        operation_id="list_moves",
        summary="The move log (redacted for you while the match runs)",
        parameters=[MATCH_ID, *PAGE_PARAMETERS],
        responses={200: page_of(s.LoggedMoveSerializer), **error_responses(400, 404)},
        examples=[MOVE_LOG_EXAMPLE],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        limit, offset = bounds(request)
        match = selectors.get_match(match_id)
        # the log's rows are its plies: offset is the first ply of the page
        entries = selectors.move_log(match, request.user, since=min(offset, match.ply),
                                     limit=limit)
        return Response(envelope(
            request, count=match.ply, limit=limit, offset=offset,
            results=[represent(s.LoggedMoveSerializer, entry) for entry in entries]))

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
        metrics.app_move(metrics.app_label(request.user, request.auth))
        return Response(represent(s.SubmittedMoveSerializer, body),
                        status=status.HTTP_201_CREATED)


class ReplayView(ApiView):
    query_params = ("ply",)
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="get_replay",
        summary="The position after ply N (default the latest), as you may see it",
        parameters=[MATCH_ID, OpenApiParameter("ply", int, description="0 .. the match's "
                                               "ply; default the latest.")],
        responses={200: s.ReplaySerializer, **error_responses(400, 404, 409)},
        examples=[REPLAY_EXAMPLE, ERROR_EXAMPLES["invalid_ply"],
                  ERROR_EXAMPLES["rules_version_unavailable"]],
        tags=["play"],
    )
    def get(self, request, match_id: str):
        match = selectors.get_match(match_id)
        ply = request.query_params.get("ply")
        return Response(s.ReplaySerializer(selectors.replay_view(match, request.user, ply)).data)


class ResultView(ApiView):
    required_scopes = {"GET": PUBLIC}

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
    required_scopes = {"GET": PUBLIC}

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
        return polled_response(request, match_id, lambda match: represent(
            s.EventsSerializer, selectors.match_events(match, request.user, since=since)))
