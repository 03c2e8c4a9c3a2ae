"""A chat message's notice to the players' own channels (Web Push, e-mail: event
``chat_message``, off by default: games/notifications/preferences.py): the players' room
only, to the other people at the table who did not mute the author. Ids only, never the text:
a notice to come and read it where the room's rules apply (games/chat/rooms.py)."""

from __future__ import annotations

from games.chat.models import ChatMessage, ChatRoom, RoomKind
from games.matches.models import Match
from games.notifications import fanout
from games.notifications.models import CHAT_MESSAGE


def notify_after_commit(match: Match, room: ChatRoom, message: ChatMessage,
                        readers: list[int]) -> None:
    """In the sending transaction: the notice to ``readers`` (the table but the author
    and who muted the author: ``games.chat.rooms.table_readers``) once it commits."""
    if room.kind != RoomKind.PLAYERS or not readers:
        return  # the spectators' room is the onlookers' talk: nobody is called to it
    data = {"match_id": match.pk, "game": match.game, "room": room.kind,
            "message_id": message.pk}

    # fanout.notify_after_commit: the cached reach check, and robust after the commit (a
    # failure is logged; the sender is still told their message was stored)
    fanout.notify_after_commit(CHAT_MESSAGE, readers, data)
