"""A chat message's push to the play sockets, after its commit (docs/chat.md "Pushes").

The writer (games/chat/services.py) builds the ``chat`` frame once, encoded, with the
room's audience at the commit: the room, whether the match had ended, whether its players
may read the spectators' room, and who held which seat then (``frames.holders``). It goes
out on the match's play channel from this process's sender thread (the committing thread
never waits for Redis), and every hub, this process's too, sends it to the followers of
the match that audience lets read the room (``games.chat.rooms.receives``): a spectator
is never sent the players' room of a running match, whatever it follows.

A message lost with Redis is not pushed again: the room's REST list has it (a chat
message is not part of the match's state, so the hubs' resync check does not look for
it).
"""

from __future__ import annotations

from games.live.channels import (
    CHAT_MESSAGE_TYPE,
    CHAT_PUSH_TYPE,
    chat_group_name,
    play_channel,
)
from infra import pubsub


def send_chat(match_id: int, frame_text: str, audience: dict, row: dict) -> None:
    """Publish a ``chat`` frame for the readers ``audience`` admits (after the commit),
    and the message (``row``) to the match's GraphQL chat subscribers, who filter by the
    same audience (games/graphql/chat.py); the group is sent to only when it has members,
    in the PUBLISH's round trip (infra/pubsub.py)."""
    group_message = {"type": CHAT_MESSAGE_TYPE, "audience": audience, "message": row}
    pubsub.publish_with_groups(play_channel(match_id),
                               {"type": CHAT_PUSH_TYPE, "match_id": match_id,
                                "audience": audience, "frame": frame_text},
                               [(chat_group_name(match_id), group_message)])
