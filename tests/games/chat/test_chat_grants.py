"""What the runtime database role may do to the chat's tables (games/chat/database_grants.py):
a message's words, room, time and ply are never rewritten and no message is deleted; its
deletion and hiding flags change."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from psycopg import errors as pg

from games.chat import services
from tests.db_sessions import another_session
from tests.games.chat.support import two_player_han

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def runtime_sql():
    runtime = settings.RUNTIME_DATABASE
    if runtime["USER"] == connection.settings_dict["USER"]:
        pytest.skip("the suite connects as the runtime role: set DATABASE_OWNER_URL")
    with another_session(user=runtime["USER"], password=runtime["PASSWORD"],
                         autocommit=True) as conn:
        yield conn


def test_the_runtime_role_cannot_rewrite_or_delete_a_message(runtime_sql, make_user):
    alice, bob = make_user(), make_user()
    match = two_player_han(alice, bob)
    sent = services.send_message(match.pk, "players", alice, "as said")
    for sql in ("UPDATE games_chatmessage SET text = 'never said' WHERE id = %s",
                "UPDATE games_chatmessage SET ply = 99 WHERE id = %s",
                "UPDATE games_chatmessage SET created_at = now() WHERE id = %s",
                "UPDATE games_chatmessage SET room_id = room_id WHERE id = %s",
                "DELETE FROM games_chatmessage WHERE id = %s",
                "UPDATE games_chatroom SET kind = 'players' WHERE id = "
                "(SELECT room_id FROM games_chatmessage WHERE id = %s)"):
        with pytest.raises(pg.InsufficientPrivilege):
            runtime_sql.execute(sql, [sent["id"]])
    runtime_sql.execute("UPDATE games_chatmessage SET hidden_by_moderator = true "
                        "WHERE id = %s", [sent["id"]])

