"""REST: the caller's notification preferences, ``/api/v1/me/notification-preferences/``
(docs/notifications.md). Read with ``account:read``, changed with ``account:write``."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from games.api.notifications.serializers import NotificationPreferencesSerializer
from games.notifications import preferences
from infra.api_errors import ErrorSerializer
from infra.api_views import ApiView


class PreferencesView(ApiView):
    required_scopes = {"GET": "account:read", "PATCH": "account:write"}
    permission_classes = [IsAuthenticated]

    @extend_schema(summary="Your notification preferences, per channel and event type",
                   operation_id="get_notification_preferences",
                   responses={200: NotificationPreferencesSerializer, 401: ErrorSerializer})
    def get(self, request: Request) -> Response:
        return Response(preferences.preferences_of(request.user.pk))

    @extend_schema(summary="Turn notifications on or off, per channel and event type",
                   description="`{\"push\": {\"your_turn\": false}}`: only what changes. An "
                   "unknown channel is 400 `unknown_notification_channel`, an unknown event "
                   "type 400 `unknown_notification_event`; nothing is stored then.",
                   operation_id="update_notification_preferences",
                   request=NotificationPreferencesSerializer,
                   responses={200: NotificationPreferencesSerializer, 400: ErrorSerializer,
                              401: ErrorSerializer, 403: ErrorSerializer})
    def patch(self, request: Request) -> Response:
        changes = preferences.parse_changes(request.data)
        return Response(preferences.set_preferences(request.user.pk, changes))
