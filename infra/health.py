"""GET /api/v1/health: the readiness probe under its older name, for the OpenAPI document
and the clients that poll it. infra/probes.py answers it (with /health/ready and
/health/live) before the other middleware; this view gives the same answer when reached
otherwise. docs/operations.md "Probes"."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from infra.api_views import PUBLIC, ApiView
from infra.probes import readiness

HealthSerializer = inline_serializer(
    name="Health",
    fields={
        # Plain strings, not choice fields: enums named "status" collide in the schema.
        "status": serializers.CharField(
            help_text='"ok"; "degraded" (Redis down: the API still serves, 200) or '
            '"unavailable" (the database does not answer, 503)'),
        "database": serializers.CharField(help_text='"ok" or "down"'),
        "redis": serializers.CharField(help_text='"ok" or "down"'),
    },
)


class HealthView(ApiView):
    authentication_classes: list = []  # a bad token must not turn a health check into a 401
    permission_classes = [AllowAny]
    throttle_classes: list = []  # load balancers poll it from one address
    required_scopes = {"GET": PUBLIC}

    @extend_schema(summary="May this instance take traffic (readiness; also /health/ready)?",
                   operation_id="health",
                   responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        status, body = readiness()
        return Response(body, status=status)
