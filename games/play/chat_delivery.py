"""A chat message's frame to the play sockets allowed to read its room (docs/chat.md)."""

from __future__ import annotations

from games.chat.rooms import receives


def deliver_chat(hub, message: dict) -> None:
    """Send a chat message's frame (games/live/chat_sends.py) to each follower of the
    match its audience lets read the room (``games.chat.rooms.receives``: the seat each
    user held when it was sent, never what this process remembers)."""
    audience, text = message.get("audience"), message.get("frame")
    if not isinstance(audience, dict) or not isinstance(text, str):
        return
    match_id = message.get("match_id")
    for socket in hub.followers_of(match_id):
        if match_id in socket.follows and receives(audience, socket.user):
            socket.push(match_id, text)
