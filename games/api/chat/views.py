"""REST endpoints of the match chat: a room's messages (paged, oldest first), sending one,
deleting one's own; muting another user for oneself. Thin: ``games.chat`` decides
(docs/chat.md)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response

from games.api.chat.serializers import (
    ChatMessageSerializer,
    ChatMuteSerializer,
    SendChatMessageRequestSerializer,
)
from games.api.toolkit.endpoints import MATCH_ID, error_responses, parse_body, represent
from games.chat import mutes, selectors, services
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


USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH)


class ChatMuteListView(ApiView):
    query_params = ("limit", "offset")
    required_scopes = {"GET": "account:read"}

    @extend_schema(
        operation_id="list_chat_mutes",
        summary="The users you muted in chat",
        parameters=[*PAGE_PARAMETERS],
        responses={200: page_of(ChatMuteSerializer), **error_responses(400)},
        tags=["chat"],
    )
    def get(self, request):
        _signed_in(request)
        return Response(paged(request, mutes.muted_by(request.user),
                              lambda name: {"username": name}))


class ChatMuteView(ApiView):
    required_scopes = {"PUT": "chat:write", "DELETE": "chat:write"}

    @extend_schema(
        operation_id="mute_in_chat",
        summary="Mute a user: their chat messages no longer reach you",
        parameters=[USERNAME],
        request=None,
        responses={200: ChatMuteSerializer, **error_responses(400, 404)},
        tags=["chat"],
    )
    def put(self, request, username: str):
        _signed_in(request)
        return Response({"username": mutes.mute(request.user, username)})

    @extend_schema(
        operation_id="unmute_in_chat",
        summary="Unmute a user",
        parameters=[USERNAME],
        responses={204: None, **error_responses(404)},
        tags=["chat"],
    )
    def delete(self, request, username: str):
        _signed_in(request)
        mutes.unmute(request.user, username)
        return Response(status=status.HTTP_204_NO_CONTENT)
