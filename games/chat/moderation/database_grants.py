"""What the runtime database role may do to the moderation tables beyond SELECT, INSERT
and UPDATE (infra/database_roles.py):

- a report: what was reported, by which reason and note, and when are fixed; its status
  and resolution change (and its reporter, SET NULL if ever deleted);
- a sanction: its user, kind, end, reason and start are fixed; only ``cleared_at`` changes
  (clearing is a new fact in the log, not a rewrite);
- the moderation log: what happened is fixed; only its references may go NULL when what
  they name is deleted by the owner;
- no DELETE of any: they go with their message or user, by the owner's cascade.
"""

from __future__ import annotations

from infra.database_roles import RuntimePrivileges

REPORT_FIXED = ("id", "message_id", "reason", "note", "created_at")
SANCTION_FIXED = ("id", "user_id", "kind", "until", "reason", "created_at")
ACTION_FIXED = ("id", "kind", "until", "reason", "created_at")


def runtime_privileges() -> RuntimePrivileges:
    from games.chat.moderation.models import ChatReport, ChatSanction, ModerationAction

    return RuntimePrivileges(fixed_columns={ChatReport._meta.db_table: REPORT_FIXED,
                                            ChatSanction._meta.db_table: SANCTION_FIXED,
                                            ModerationAction._meta.db_table: ACTION_FIXED})
