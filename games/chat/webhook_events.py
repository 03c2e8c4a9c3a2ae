"""A chat message as a webhook (docs/chat.md "Webhooks"; games/webhooks/): the event type
``chat_message``, sent once the message commits to the users at the table who may read
its room, its author left out, and so is anyone who muted the author (a webhook is one
more transport: the server's mute holds on it too). The spectators' room's other readers
are anyone at all and are not enumerated: its webhook goes to the players only when they
may read it (``games.chat.rooms.reads``). The data are ids and the text only.
"""

from __future__ import annotations

from games.chat.models import ChatMessage
from games.webhooks.events import chat_message_sent


def announce(message: ChatMessage, readers: list[int]) -> None:
    """In the sending transaction: the ``chat_message`` webhook to ``readers``
    (``games.chat.rooms.table_readers``) once it commits."""
    chat_message_sent(match_id=message.room.match_id, room=message.room.kind,
                      message_id=message.pk, author_id=message.author_id, text=message.text,
                      readers=readers)
