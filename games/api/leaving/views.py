"""REST: the signed-in person's data as one download (``GET /api/v1/me/export``). Erasing
the account is ``DELETE /api/v1/me`` (accounts/views.py)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.leaving.serializers import PersonalDataSerializer
from games.api.toolkit.endpoints import error_responses
from games.leaving.export import personal_data
from infra.api_views import ApiView


class MyDataExportView(ApiView):
    permission_classes = [IsAuthenticated]
    required_scopes = {"GET": "account:write"}
    # every record is replayed to build: strict, as the password actions are
    throttle_scope = "auth"
    query_params = ("records_after", "records_limit")

    @extend_schema(
        summary="Download everything held on you: profile, ratings, records, matches",
        description="One JSON document (a download: `Content-Disposition: attachment`). "
        "docs/api.md \"Your data and leaving\".",
        operation_id="export_me",
        parameters=[
            OpenApiParameter("records_after", int, description="Only records of matches "
                             "with a larger id (the previous page's `records_next_after`)."),
            OpenApiParameter("records_limit", int, description="At most this many records "
                             "(all when left out)."),
        ],
        responses={200: PersonalDataSerializer, **error_responses(400, 429)},
    )
    def get(self, request):
        params = request.query_params
        response = Response(personal_data(request.user,
                                          records_after=params.get("records_after"),
                                          records_limit=params.get("records_limit")))
        response["Content-Disposition"] = (
            f'attachment; filename="han-hansa-data-{request.user.pk}.json"')
        response["Cache-Control"] = "no-store"
        return response
