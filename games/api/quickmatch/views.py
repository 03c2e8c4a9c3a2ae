"""REST endpoints of quick match: ask, list yours, cancel."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.matches import serializers as s
from games.api.openapi import (
    NameField,
    OptionsField,
    RatingRangeField,
    TimeControlChoiceField,
    WholeNumberField,
)
from games.api.quickmatch.serializers import QuickMatchRequestRowSerializer
from games.api.toolkit.endpoints import error_responses
from games.quickmatch import selectors, services
from infra.api_views import ApiView
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


class QuickMatchRequestSerializer(s.RefusesUnknownFields):
    """The match you wait for (game, seats, options, clock) and whom you accept by rating;
    unknown keys are refused (invalid_input, unknown_field)."""

    game = NameField(help_text='"han" or "hansa".')
    players = WholeNumberField(help_text="Number of seats.")
    options = OptionsField(required=False, default=None, allow_null=True,
                           help_text="Game options (see GET /games/{game}/).")
    time_control = TimeControlChoiceField(required=False, default=None, allow_null=True,
                                          help_text="As POST /matches/ takes it.")
    rating_range = RatingRangeField(
        required=False, default=None, allow_null=True,
        help_text='{"min": number, "max": number} on openskill mu; either may be left out.')



class QuickMatchView(ApiView):
    permission_classes = [IsAuthenticated]
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read", "POST": "match:write"}

    @extend_schema(summary="Your quick-match requests, newest first",
                   operation_id="list_my_quick_matches", parameters=PAGE_PARAMETERS,
                   responses={200: page_of(QuickMatchRequestRowSerializer),
                              **error_responses()}, tags=["quick match"])
    def get(self, request):
        return Response(paged(request, selectors.requests_query(request.user),
                              selectors.request_row))

    @extend_schema(summary="Wait for a quick match",
                   operation_id="request_quick_match", request=QuickMatchRequestSerializer,
                   responses={201: QuickMatchRequestRowSerializer,
                              **error_responses(400, 409)},
                   tags=["quick match"])
    def post(self, request):
        serializer = QuickMatchRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        created = services.request_quick_match(user=request.user, **serializer.validated_data)
        created.refresh_from_db()  # pairing may have run already (eager tasks)
        return Response(selectors.request_row(created), status=status.HTTP_201_CREATED)


class QuickMatchDetailView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"DELETE": "match:write"}

    @extend_schema(summary="Stop waiting", operation_id="cancel_quick_match", request=None,
                   parameters=[OpenApiParameter("request_id", int, OpenApiParameter.PATH)],
                   responses={200: QuickMatchRequestRowSerializer,
                              **error_responses(404, 409)},
                   tags=["quick match"])
    def delete(self, request, request_id: str):
        return Response(selectors.request_row(
            services.cancel(user=request.user, request_id=request_id)))
