"""What the runtime database role may do to the moderation tables
(games/chat/moderation/database_grants.py): the log, a sanction's terms and what a report
says are never rewritten and none is deleted; a report's status and a sanction's clearing
change."""

from __future__ import annotations

import pytest
from psycopg import errors as pg

from games.chat.moderation import actions
from tests.games.chat.moderation_support import reported_message
from tests.games.chat.test_chat_grants import runtime_sql  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_runtime_role_cannot_rewrite_or_delete_the_moderation_record(
        runtime_sql, make_user):  # noqa: F811
    _match, _author, _reader, report, moderator = reported_message(make_user)
    entry = actions.time_out(report, moderator, "1h", "insults")
    sanction_id, action_id = entry.sanction_id, entry.pk
    for sql, row in (
            ("UPDATE games_moderationaction SET reason = 'nothing happened' WHERE id = %s",
             action_id),
            ("UPDATE games_moderationaction SET kind = 'dismiss' WHERE id = %s", action_id),
            ("DELETE FROM games_moderationaction WHERE id = %s", action_id),
            ("UPDATE games_chatsanction SET until = now() WHERE id = %s", sanction_id),
            ("UPDATE games_chatsanction SET kind = 'ban', until = NULL WHERE id = %s",
             sanction_id),
            ("DELETE FROM games_chatsanction WHERE id = %s", sanction_id),
            ("UPDATE games_chatreport SET reason = 'spam' WHERE id = %s", report.pk),
            ("UPDATE games_chatreport SET note = 'edited' WHERE id = %s", report.pk),
            ("DELETE FROM games_chatreport WHERE id = %s", report.pk)):
        with pytest.raises(pg.InsufficientPrivilege):
            runtime_sql.execute(sql, [row])
    # what the service changes, it may
    runtime_sql.execute("UPDATE games_chatsanction SET cleared_at = now() WHERE id = %s",
                        [sanction_id])
    runtime_sql.execute("UPDATE games_chatreport SET status = 'dismissed' WHERE id = %s",
                        [report.pk])
