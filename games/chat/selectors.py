"""Reading the chat: a match's room as a reader finds it, whether they may read or write
it (games/chat/rooms.py), and its messages as shown."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from games.chat import invitees, rooms
from games.chat.errors import ChatRoomNotFound, ChatRoomNotReadable
from games.chat.models import ChatMessage, ChatMute, ChatRoom, RoomKind
from games.matches import selectors as match_selectors
from games.matches.models import Match


def parse_room_kind(kind: Any) -> str:
    """``"players"`` or ``"spectators"``; anything else is 404 ``chat_room_not_found``."""
    if kind not in RoomKind.values:
        raise ChatRoomNotFound()
    return kind


def room_of(match: Match, kind: str) -> ChatRoom:
    """The match's room of ``kind``: its row, or, before its first message, the room it
    will be (unsaved: reading a room writes nothing)."""
    room = ChatRoom.objects.filter(match_id=match.pk, kind=kind).first()
    return room if room is not None else ChatRoom(match=match, kind=kind)


def standing(match: Match, user, invited: list[int] | None = None) -> dict:
    """What ``user`` is to the match's rooms: the keywords of ``rooms.reads``/``rooms.writes``.
    ``invited``: the match's pending invitees when the caller read them already
    (``invitees.invitee_ids``: a send needs them for its push too), else asked here."""
    # an invitee of a match still waiting for players sits at the table for its chat
    # (games/chat/invitees.py)
    seated = match_selectors.seat_of(match, user) is not None or (
        getattr(user, "is_authenticated", False)
        and user.pk in (invitees.invitee_ids(match) if invited is None else invited))
    # the spectators' room's rule is the match's option (games/matches/spectator_chat.py)
    return {"seated": seated, "ended": rooms.is_ended(match.status),
            "readable_by_players": match.players_read_spectator_chat}


def may_read(room: ChatRoom, match: Match, user) -> bool:
    return rooms.reads(room.kind, **standing(match, user))


def may_write(room: ChatRoom, match: Match, user, invited: list[int] | None = None) -> bool:
    return rooms.writes(room.kind, signed_in=bool(getattr(user, "is_authenticated", False)),
                        **standing(match, user, invited))


def readable_messages(match_id: Any, kind: Any, user) -> QuerySet[ChatMessage]:
    """The messages of a match's room, oldest first, for a reader who may read it:
    404 ``match_not_found`` / ``chat_room_not_found``, 403 ``chat_room_not_readable``."""
    kind = parse_room_kind(kind)
    match = match_selectors.get_match(match_id)
    room = room_of(match, kind)
    if not may_read(room, match, user):
        raise ChatRoomNotReadable()
    if room.pk is None:
        return ChatMessage.objects.none()
    messages = ChatMessage.objects.filter(room=room)
    if getattr(user, "is_authenticated", False):
        # a muted author's messages are not the muter's to see (games/chat/mutes.py)
        messages = messages.exclude(author__in=ChatMute.objects.filter(user=user)
                                    .values("muted"))
    return messages.select_related("author", "room").order_by("id")


def message_row(message: ChatMessage) -> dict:
    """A message as every reader is shown it: a deleted or hidden one keeps its place and
    its author, without its text."""
    shown = not (message.deleted_by_author or message.hidden_by_moderator)
    return {
        "id": message.pk,
        "match": str(message.room.match_id),
        "room": message.room.kind,
        "author": message.author.username if message.author_id else None,
        "text": message.text if shown else "",
        "ply": message.ply,
        "created_at": message.created_at.isoformat(),
        "deleted": message.deleted_by_author,
        "hidden": message.hidden_by_moderator,
    }


def messages_written_by(user) -> list[dict]:
    """Every message ``user`` wrote, oldest first, for their export (docs/chat.md
    "Privacy"): each as the room lists it, but with its text as written even when
    deleted or hidden, since the service still holds that text and it is theirs."""
    rows = []
    for message in (ChatMessage.objects.filter(author=user)
                    .select_related("author", "room").order_by("id")):
        rows.append({**message_row(message), "text": message.text})
    return rows
