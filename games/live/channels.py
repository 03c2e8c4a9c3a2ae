"""The names a match's changes travel under: the Pub/Sub channel the play hubs follow, the
channel-layer group GraphQL subscribers join, and the types of their messages. Nothing
here sends; games/live/fanout.py does."""

from __future__ import annotations

from django.conf import settings

#: a change known by match, ply and status: each reader reads what it may see
MATCH_UPDATE_TYPE = "match.update"
#: a change's frames, one per seat and one for spectators (games/live/frames.py)
PLAY_PUSHES_TYPE = "play.pushes"
#: a chat message's frame and who may read its room (games/live/chat_sends.py)
CHAT_PUSH_TYPE = "chat.push"
#: a chat message as GraphQL's ``chatMessages`` subscribers get it (games/graphql/chat.py)
CHAT_MESSAGE_TYPE = "chat.message"


def play_channel(match_id: int) -> str:
    """The Pub/Sub channel of ``match_id``'s play hubs."""
    return f"{settings.PLAY_CHANNEL_PREFIX}{match_id}"


def match_group_name(match_id: int) -> str:
    """The channel-layer group every GraphQL subscriber of ``match_id`` joins."""
    return f"match-{match_id}"


def chat_group_name(match_id: int) -> str:
    """The channel-layer group every GraphQL ``chatMessages`` subscriber of ``match_id``
    joins (apart from ``match_group_name``: a move's subscribers hear no chat)."""
    return f"chat-{match_id}"
