"""GET /api/v1/health: can this instance reach its database and its Redis?

Load balancers and `make run` users poll it, so it needs no authentication and answers fast:
Redis gets a short timeout, and settings.REDIS_URL is read per request so a test (or an
operator) can point it elsewhere without a restart."""

from __future__ import annotations

import logging

import redis
from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from infra.api_views import PUBLIC, ApiView

logger = logging.getLogger(__name__)

REDIS_TIMEOUT_SECONDS = 1.0


def database_is_up() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:  # any driver error means "down"; the reason goes to the log only
        logger.warning("health: database check failed", exc_info=True)
        return False


def redis_is_up() -> bool:
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=REDIS_TIMEOUT_SECONDS,
        socket_timeout=REDIS_TIMEOUT_SECONDS,
    )
    try:
        return bool(client.ping())
    except Exception:
        logger.warning("health: redis check failed", exc_info=True)
        return False
    finally:
        client.close()


HealthSerializer = inline_serializer(
    name="Health",
    fields={
        # Plain strings, not choice fields: enums named "status" collide in the schema.
        "status": serializers.CharField(help_text='"ok" or "unavailable"'),
        "database": serializers.CharField(help_text='"ok" or "down"'),
        "redis": serializers.CharField(help_text='"ok" or "down"'),
    },
)


class HealthView(ApiView):
    authentication_classes: list = []  # a bad token must not turn a health check into a 401
    permission_classes = [AllowAny]
    throttle_classes: list = []  # load balancers poll it from one address
    required_scopes = {"GET": PUBLIC}

    @extend_schema(summary="Is the service up (database and Redis)?", operation_id="health",
                   responses={200: HealthSerializer, 503: HealthSerializer})
    def get(self, request: Request) -> Response:
        checks = {
            "database": "ok" if database_is_up() else "down",
            "redis": "ok" if redis_is_up() else "down",
        }
        healthy = all(value == "ok" for value in checks.values())
        body = {"status": "ok" if healthy else "unavailable", **checks}
        return Response(body, status=200 if healthy else 503)
