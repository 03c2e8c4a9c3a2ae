"""REST endpoints of the match chat: a room's messages (paged, oldest first), sending one,
deleting one's own. Thin: ``games.chat.selectors`` / ``services`` decide (docs/chat.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from games.api.chat.serializers import ChatMessageSerializer, SendChatMessageRequestSerializer
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body, represent
from games.chat import selectors, services
from games.matches.errors import AuthenticationRequired
from infra.api_views import PUBLIC, ApiView
from infra.paging import PAGE_PARAMETERS, page_of, paged

ROOM = OpenApiParameter("room", str, OpenApiParameter.PATH, enum=["players", "spectators"],
                        description="The players' or the spectators' room.")
MESSAGE_ID = OpenApiParameter("message_id", int, OpenApiParameter.PATH)


def _signed_in(request) -> None:
    if not request.user.is_authenticated:
        raise AuthenticationRequired()


class ChatRoomView(ApiView):
    query_params = ("limit", "offset")
    required_scopes = {"GET": PUBLIC, "POST": "chat:write"}

    @extend_schema(
        operation_id="list_chat_messages",
        summary="A chat room's messages, oldest first (docs/chat.md)",
        parameters=[MATCH_ID, ROOM, *PAGE_PARAMETERS],
        responses={200: page_of(ChatMessageSerializer), **error_responses(400, 403, 404)},
        tags=["chat"],
    )
    def get(self, request, match_id: str, room: str):
        messages = selectors.readable_messages(match_id, room, request.user)
        return Response(paged(request, messages, lambda message: represent(
            ChatMessageSerializer, selectors.message_row(message))))

    @extend_schema(
        operation_id="send_chat_message",
        summary="Send a message to a chat room (pushed to its readers after the commit)",
        parameters=[MATCH_ID, ROOM],
        request=SendChatMessageRequestSerializer,
        responses={201: ChatMessageSerializer, **error_responses(400, 403, 404, 429)},
        tags=["chat"],
    )
    def post(self, request, match_id: str, room: str):
        _signed_in(request)
        data = parse_body(SendChatMessageRequestSerializer, request)
        row = services.send_message(match_id, room, request.user, data["text"])
        return Response(represent(ChatMessageSerializer, row), status=status.HTTP_201_CREATED)


class ChatMessageView(ApiView):
    required_scopes = {"DELETE": "chat:write"}

    @extend_schema(
        operation_id="delete_chat_message",
        summary="Delete your own message (it stays, shown as deleted)",
        parameters=[MATCH_ID, ROOM, MESSAGE_ID],
        responses={200: ChatMessageSerializer, **error_responses(403, 404)},
        tags=["chat"],
    )
    def delete(self, request, match_id: str, room: str, message_id: str):
        _signed_in(request)
        row = services.delete_own_message(match_id, room, message_id, request.user)
        return Response(represent(ChatMessageSerializer, row))
