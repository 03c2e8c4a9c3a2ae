"""What the runtime database role may do to the chat's tables beyond SELECT, INSERT and
UPDATE (infra/database_roles.py finds this module beside games/chat/models.py and grants
it after every ``migrate``).

- a message: no UPDATE of what was said, by whom, where and when (messages are edited
  never: docs/chat.md); only its deletion and hiding flags change, and the author
  (SET NULL when an account is erased);
- a room: its match and kind are fixed;
- no DELETE of rooms and messages: a deleted message stays, shown as deleted (they go
  with their match, by the owner's cascade);
- a mute: DELETE (unmuting, games.chat.mutes); nothing of it is updated.
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges

MESSAGE_FIXED = ("id", "room_id", "text", "created_at", "ply")
ROOM_FIXED = ("id", "match_id", "kind", "created_at")


def runtime_privileges() -> RuntimePrivileges:
    from games.chat.models import ChatMessage, ChatMute, ChatRoom

    return RuntimePrivileges(fixed_columns={ChatMessage._meta.db_table: MESSAGE_FIXED,
                                            ChatRoom._meta.db_table: ROOM_FIXED},
                             no_update=frozenset({ChatMute._meta.db_table}),
                             deletable=frozenset({ChatMute._meta.db_table}))
