"""REST of the analysis: GET and POST /api/v1/matches/{id}/analysis/ (docs/analysis.md).

Both answer 200 with the whole analysis once it is final, and 202 with its progress while
it is queued or running. POST requests it (a player of the match or an admin; a request
while one exists joins it); GET only reads (404 ``no_analysis`` before any request)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from games.analysis import selectors, services
from games.api.analysis.serializers import AnalysisSerializer
from games.api.toolkit.endpoints import MATCH_ID, error_responses
from games.matches import errors as match_errors
from infra.api_views import PUBLIC, ApiView


def _answer(body: dict) -> Response:
    return Response(body, status=200 if selectors.is_final(body) else 202)


class AnalysisView(ApiView):
    required_scopes = {"GET": PUBLIC, "POST": "match:write"}

    @extend_schema(
        operation_id="get_analysis",
        summary="A finished match's analysis: 200 with the result, 202 with progress",
        parameters=[MATCH_ID],
        responses={200: AnalysisSerializer, 202: AnalysisSerializer,
                   **error_responses(400, 404)},
        tags=["analysis"],
    )
    def get(self, request, match_id: str):
        return _answer(selectors.analysis_of(match_id))

    @extend_schema(
        operation_id="request_analysis",
        summary="Request the analysis of a finished match (a player of it, or an admin)",
        parameters=[MATCH_ID],
        request=None,
        responses={200: AnalysisSerializer, 202: AnalysisSerializer,
                   **error_responses(400, 403, 404, 409, 429)},
        tags=["analysis"],
    )
    def post(self, request, match_id: str):
        if request.data:  # nothing to choose: the budget is the service's
            raise match_errors.InvalidRequest(_("This request takes no body."))
        analysis, _created = services.request_analysis(match_id, request.user)
        return _answer(selectors.analysis_body(analysis, analysis.match))
