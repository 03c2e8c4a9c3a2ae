"""GraphQL fields of the match chat (docs/chat.md "GraphQL"): a room's messages (paged as
REST's list), sending, deleting one's own, muting; the live ``chatMessages``
subscription. Thin: ``games.chat`` decides who reads and writes (games/chat/rooms.py),
so no transport shows a room to anyone another would refuse."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from datetime import datetime

import strawberry
from channels.db import database_sync_to_async
from django.utils.translation import gettext as _
from strawberry.types import Info

from games.chat import mutes, selectors, services
from games.chat.rooms import receives
from games.graphql.context import authenticated_user, current_user
from games.graphql.errors import as_graphql_error, attempt, signed_in
from games.graphql.types import GameError
from games.live.channels import CHAT_MESSAGE_TYPE, chat_group_name
from games.matches import errors, parsing
from games.matches import selectors as match_selectors
from infra.api_errors import ApiError

ROOM_DESCRIPTION = "players or spectators (docs/chat.md)."


@strawberry.type(name="ChatMessage", description="A chat message as the room lists it "
                 "(REST's fields): a deleted or hidden one keeps its place, without text.")
class ChatMessageType:
    id: strawberry.ID
    match_id: strawberry.ID
    room: str
    author: str | None = strawberry.field(description="null: an erased account's.")
    text: str = strawberry.field(description="Empty when deleted or hidden.")
    ply: int = strawberry.field(description="The match's ply when it was sent.")
    created_at: datetime
    deleted: bool
    hidden: bool

    @classmethod
    def from_row(cls, row: dict) -> ChatMessageType:
        return cls(id=strawberry.ID(str(row["id"])), match_id=strawberry.ID(row["match"]),
                   room=row["room"], author=row["author"], text=row["text"], ply=row["ply"],
                   created_at=datetime.fromisoformat(row["created_at"]),
                   deleted=row["deleted"], hidden=row["hidden"])


@strawberry.type(description="A chat room's messages, oldest first, as the REST list "
                 "(limit/offset).")
class ChatMessagePage:
    count: int
    limit: int
    offset: int
    results: list[ChatMessageType]


@strawberry.type
class ChatMessagePayload:
    message: ChatMessageType | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type(description="A user whose chat messages you no longer receive, on any "
                 "transport.")
class ChatMute:
    username: str


@strawberry.type
class ChatMutePayload:
    username: str | None = None
    errors: list[GameError] = strawberry.field(default_factory=list)


@strawberry.type
class ChatQueries:
    @strawberry.field(description="A chat room's messages, oldest first, paged as GET "
                      "/api/v1/matches/{id}/chat/{room}/ (chat_room_not_readable when you "
                      "may not read it).")
    def chat_messages(self, info: Info, match_id: strawberry.ID,
                      room: str, limit: int = parsing.DEFAULT_PAGE_SIZE,
                      offset: int = 0) -> ChatMessagePage:
        limit, offset = parsing.parse_page(limit, offset)  # REST's bounds and errors
        messages = selectors.readable_messages(match_id, room, current_user(info))
        return ChatMessagePage(count=messages.count(), limit=limit, offset=offset,
                               results=[ChatMessageType.from_row(selectors.message_row(row))
                                        for row in messages[offset:offset + limit]])

    @strawberry.field(description="The users you muted in chat, in the order you muted "
                      "them (empty when anonymous).")
    def my_chat_mutes(self, info: Info) -> list[ChatMute]:
        user = authenticated_user(info)
        return [ChatMute(username=name) for name in mutes.muted_by(user)] \
            if user is not None else []


@strawberry.type
class ChatMutations:
    @strawberry.mutation(description="Send a message to a chat room of a match (pushed to "
                         "its readers after the commit).")
    def send_chat_message(self, info: Info, match_id: strawberry.ID, room: str,
                          text: str) -> ChatMessagePayload:
        user, problems = signed_in(info)
        if problems:
            return ChatMessagePayload(errors=problems)
        row, problems = attempt(lambda: services.send_message(match_id, room, user, text),
                                _FIELDS)
        return ChatMessagePayload(errors=problems) if problems else \
            ChatMessagePayload(message=ChatMessageType.from_row(row))

    @strawberry.mutation(description="Delete your own message (it stays, shown as deleted).")
    def delete_chat_message(self, info: Info, match_id: strawberry.ID, room: str,
                            message_id: strawberry.ID) -> ChatMessagePayload:
        user, problems = signed_in(info)
        if problems:
            return ChatMessagePayload(errors=problems)
        row, problems = attempt(lambda: services.delete_own_message(
            match_id, room, message_id, user), _FIELDS)
        return ChatMessagePayload(errors=problems) if problems else \
            ChatMessagePayload(message=ChatMessageType.from_row(row))

    @strawberry.mutation(description="Mute a user: their chat messages no longer reach you.")
    def mute_in_chat(self, info: Info, username: str) -> ChatMutePayload:
        user, problems = signed_in(info)
        if problems:
            return ChatMutePayload(errors=problems)
        muted, problems = attempt(lambda: mutes.mute(user, username), _FIELDS)
        return ChatMutePayload(errors=problems) if problems else ChatMutePayload(
            username=muted)

    @strawberry.mutation(description="Unmute a user (not muted: no change).")
    def unmute_in_chat(self, info: Info, username: str) -> ChatMutePayload:
        user, problems = signed_in(info)
        if problems:
            return ChatMutePayload(errors=problems)
        _none, problems = attempt(lambda: mutes.unmute(user, username), _FIELDS)
        return ChatMutePayload(errors=problems) if problems else ChatMutePayload(
            username=username)


#: the argument each chat error points at
_FIELDS = {"chat_text_empty": "text", "chat_text_too_long": "text", "invalid_input": "text",
           "chat_links_not_allowed": "text", "chat_room_not_found": "room",
           "chat_room_not_writable": "room",
           "chat_room_not_readable": "room", "chat_message_not_found": "messageId",
           "chat_message_not_yours": "messageId", "user_not_found": "username"}


def _checked(match_id, room: str | None) -> int:
    """The match's id, 404 ``match_not_found``/``chat_room_not_found`` as REST answers."""
    if room is not None:
        selectors.parse_room_kind(room)
    return match_selectors.get_match(match_id).pk


@strawberry.type
class ChatSubscriptions:
    @strawberry.subscription(description="A match's chat messages as they are committed "
                             "(and again when deleted), of the rooms you may read at that "
                             "moment, never a muted author's; `room` narrows to one room. "
                             "Read the history with chatMessages.")
    async def chat_messages(self, info: Info, match_id: strawberry.ID,
                            room: str | None = None
                            ) -> AsyncGenerator[ChatMessageType, None]:
        consumer = info.context.ws
        if consumer is None:
            raise as_graphql_error(errors.InvalidRequest(
                _("Subscriptions are served over websockets only.")))
        user = current_user(info)
        try:
            pk = await database_sync_to_async(_checked)(match_id, room)
        except ApiError as exc:
            raise as_graphql_error(exc) from None
        # not counted in websocket_subscriptions_open: that gauge is of match updates
        async with consumer.listen_to_channel(
                CHAT_MESSAGE_TYPE, groups=[chat_group_name(pk)]) as messages:
            async for message in messages:
                audience, row = message.get("audience"), message.get("message")
                if not isinstance(audience, dict) or not isinstance(row, dict):
                    continue
                if room is not None and audience.get("room") != room:
                    continue
                # the seat holders when it was sent and who muted its author: the play
                # socket's one rule (games.chat.rooms.receives)
                if receives(audience, user):
                    yield ChatMessageType.from_row(row)
