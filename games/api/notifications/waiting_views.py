"""REST: ``GET /api/v1/me/waiting-games/``, the games waiting for your move, earliest
deadline first (games/notifications/waiting.py; docs/notifications.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.notifications.serializers import WaitingGameSerializer
from games.notifications.waiting import games_waiting_for
from infra.api_errors import ErrorSerializer
from infra.api_views import ApiView
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


class WaitingGamesView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": "account:read"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Games waiting for your move, earliest deadline first (none last)",
                   operation_id="list_waiting_games", parameters=PAGE_PARAMETERS,
                   responses={200: page_of(WaitingGameSerializer), 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response(paged(request, games_waiting_for(request.user)))
