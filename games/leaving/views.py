"""REST: the signed-in person's data as one download (``GET /api/v1/me/export``). Erasing
the account is ``DELETE /api/v1/me`` (accounts/views.py)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiTypes, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response

from games.api.common import error_responses
from games.leaving.export import personal_data
from infra.api_views import ApiView


class MyDataExportView(ApiView):
    permission_classes = [IsAuthenticated]
    # every record is replayed to build: strict, as the password actions are
    throttle_scope = "auth"

    @extend_schema(
        summary="Download everything held on you: profile, ratings, records, matches",
        description="One JSON document (a download: `Content-Disposition: attachment`). "
        "docs/api.md \"Your data and leaving\".",
        operation_id="export_me",
        responses={200: OpenApiTypes.OBJECT, **error_responses(429)},
    )
    def get(self, request):
        response = Response(personal_data(request.user))
        response["Content-Disposition"] = (
            f'attachment; filename="han-hansa-data-{request.user.pk}.json"')
        response["Cache-Control"] = "no-store"
        return response
