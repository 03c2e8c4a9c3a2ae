"""A chat message's notice to the players' own channels (Web Push, e-mail: event
``chat_message``, off by default: games/notifications/preferences.py): the players' room
only, to the other seated players who did not mute the author. Ids only, never the text:
a notice to come and read it where the room's rules apply (games/chat/rooms.py)."""

from __future__ import annotations

from django.db import transaction

from games.chat.models import ChatMessage, ChatRoom, RoomKind
from games.chat.mutes import muters_of
from games.matches.models import Match
from games.notifications import fanout
from games.notifications.models import CHAT_MESSAGE


def notify_after_commit(match: Match, room: ChatRoom, message: ChatMessage) -> None:
    if room.kind != RoomKind.PLAYERS:
        return  # the spectators' room is the onlookers' talk: nobody is called to it
    author = message.author_id
    seated = [seat.user_id for seat in match.seats.all()
              if seat.user_id is not None and seat.user_id != author]
    if not seated:
        return
    data = {"match_id": match.pk, "game": match.game, "room": room.kind,
            "message_id": message.pk}

    def notify() -> None:
        if not fanout.anyone_reachable():  # cached: a chat costs no query for nobody
            return
        muted = set(muters_of(author))
        fanout.notify_now(CHAT_MESSAGE, [user for user in seated if user not in muted], data)

    transaction.on_commit(notify)
