"""REST endpoint of chat reports. Thin: games.chat.moderation.reports decides."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response

from games.api.chat.views import MESSAGE_ID, ROOM
from games.api.chat_reports.serializers import (
    ChatReportSerializer,
    ReportChatMessageRequestSerializer,
)
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body, represent
from games.chat.moderation.reports import report_message
from games.matches.errors import AuthenticationRequired
from infra.api_views import ApiView


class ChatReportView(ApiView):
    multiline_fields = ("note",)
    required_scopes = {"POST": "chat:write"}

    @extend_schema(
        operation_id="report_chat_message",
        summary="Report a chat message to the moderators (again: the same report, 200)",
        parameters=[MATCH_ID, ROOM, MESSAGE_ID],
        request=ReportChatMessageRequestSerializer,
        responses={201: ChatReportSerializer, 200: ChatReportSerializer,
                   **error_responses(400, 403, 404)},
        tags=["chat"],
    )
    def post(self, request, match_id: str, room: str, message_id: str):
        if not request.user.is_authenticated:
            raise AuthenticationRequired()
        data = parse_body(ReportChatMessageRequestSerializer, request)
        row, new = report_message(match_id, room, message_id, request.user, data["reason"],
                                  data.get("note"))
        return Response(represent(ChatReportSerializer, row),
                        status=status.HTTP_201_CREATED if new else status.HTTP_200_OK)
