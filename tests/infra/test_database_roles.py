"""Least privilege in the database (issue 9): the runtime role the service connects as
(DATABASE_URL) cannot rewrite history, and still can do everything the service does.

Before, the runtime role owned every table: it could TRUNCATE games_move, disable the
append-only trigger, insert a move at ply 999 or rewrite a seed or a result. What the role
model cannot prevent (it must INSERT moves and write results to play at all) is said in
infra/database_roles.py; the ply-999 insert is refused by a trigger, not by privileges.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection, connections
from psycopg import errors as pg
from rest_framework.authtoken.models import Token

from accounts.models import User
from games.matches import services as match_services
from games.matches.models import Match, Move, Result
from tests.db_sessions import another_session
from tests.games.support import API, eager_celery, match_url, play_human_turns

pytestmark = pytest.mark.django_db(transaction=True)


def _runtime_credentials() -> dict:
    runtime = settings.RUNTIME_DATABASE
    if runtime["USER"] == connection.settings_dict["USER"]:
        pytest.skip("the suite connects as the runtime role: set DATABASE_OWNER_URL")
    return runtime


@pytest.fixture
def runtime_sql():
    """A raw connection to the test database as the runtime role (no ORM, no checks)."""
    runtime = _runtime_credentials()
    with another_session(user=runtime["USER"], password=runtime["PASSWORD"],
                         autocommit=True) as conn:
        yield conn


@pytest.fixture
def finished_match():
    with eager_celery():
        match = match_services.create_match(user=None, game="han", players=2, take_seat=False,
                                            bot_seats={0: "random", 1: "greedy"})
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished"
    return match


def _refused(conn, sql: str, params=(), error=pg.InsufficientPrivilege) -> None:
    with pytest.raises(error):
        conn.execute(sql, params)


def test_the_runtime_role_cannot_rewrite_the_log_the_seed_or_the_results(
        runtime_sql, finished_match):
    match = finished_match
    moves, seed = match.ply, match.seed
    results = list(Result.objects.filter(match=match).values_list("seat", "score", "rank"))

    _refused(runtime_sql, "TRUNCATE games_move")
    _refused(runtime_sql, "TRUNCATE games_match CASCADE")
    _refused(runtime_sql, "ALTER TABLE games_move DISABLE TRIGGER games_move_append_only")
    _refused(runtime_sql, "ALTER TABLE games_move DISABLE TRIGGER ALL")
    _refused(runtime_sql, "DROP TRIGGER games_move_no_gaps ON games_move")
    _refused(runtime_sql, "CREATE OR REPLACE FUNCTION games_move_append_only() "
                          "RETURNS trigger AS $$ BEGIN RETURN NEW; END $$ LANGUAGE plpgsql")
    _refused(runtime_sql, "UPDATE games_move SET move = '{}' WHERE match_id = %s", [match.pk])
    _refused(runtime_sql, "DELETE FROM games_move WHERE match_id = %s", [match.pk])
    _refused(runtime_sql, "DELETE FROM games_match WHERE id = %s", [match.pk])
    _refused(runtime_sql, "UPDATE games_match SET seed = 'chosen' WHERE id = %s", [match.pk])
    _refused(runtime_sql, "UPDATE games_match SET seed_commitment = repeat('0', 64) "
                          "WHERE id = %s", [match.pk])
    # the chat's room rule is the creator's, fixed with the match (docs/chat.md)
    _refused(runtime_sql, "UPDATE games_match SET players_read_spectator_chat = NOT "
                          "players_read_spectator_chat WHERE id = %s", [match.pk])
    _refused(runtime_sql, "UPDATE games_result SET score = 999 WHERE match_id = %s",
             [match.pk])
    _refused(runtime_sql, "CREATE TABLE games_shadow (id int)")
    _refused(runtime_sql, "ALTER ROLE CURRENT_USER CREATEDB")
    # INSERT is the runtime role's job, so a move at ply 999 gets past the privileges:
    # the no-gaps trigger (games/migrations/0006) refuses it.
    _refused(runtime_sql, "INSERT INTO games_move (match_id, ply, seat, move, created_at) "
                          "VALUES (%s, 999, 0, '{}', now())", [match.pk],
             error=pg.CheckViolation)

    match.refresh_from_db()
    assert (match.ply, match.seed) == (moves, seed)
    assert Move.objects.filter(match=match).count() == moves
    assert list(Result.objects.filter(match=match).values_list("seat", "score", "rank")) \
        == results


def test_every_table_is_readable_by_the_runtime_role_and_none_is_its_own(runtime_sql):
    """Granted after migrate on every table, so a future migration's table gets them too."""
    rows = runtime_sql.execute(
        "SELECT c.relname, pg_get_userbyid(c.relowner), "
        "       has_table_privilege(c.oid, 'SELECT'), has_table_privilege(c.oid, 'TRUNCATE'),"
        "       has_table_privilege(c.oid, 'TRIGGER'), has_table_privilege(c.oid, 'DELETE')"
        "  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND c.relkind = 'r'").fetchall()
    runtime = settings.RUNTIME_DATABASE["USER"]
    assert rows
    for table, owner, select, truncate, trigger, delete in rows:
        assert owner != runtime, table
        assert select and not truncate and not trigger, table
        assert delete == (table in {"django_session", "authtoken_token", "games_seat",
                                    "games_result", "games_feedevent", "accounts_user_groups",
                                    # issue 40: an analysis judged again
                                    "games_analyseddecision",
                                    # issue 43: unmuting (games/chat/mutes.py)
                                    "games_chatmute",
                                    "accounts_user_user_permissions",
                                    "auth_group_permissions",
                                    # issue 38: codes used, tokens revoked or rotated, an
                                    # app deleted in the admin
                                    # (accounts/apps_oauth/database_grants.py)
                                    "oauth2_provider_accesstoken",
                                    "oauth2_provider_refreshtoken", "oauth2_provider_grant",
                                    "oauth2_provider_idtoken", "apps_oauth_app",
                                    "apps_oauth_personaltoken", "apps_oauth_appuse",
                                    # issue 42: an owner removes a webhook endpoint, its
                                    # log goes with it (games/webhooks/database_grants.py)
                                    "games_endpoint", "games_delivery",
                                    # issue 42: a browser's push subscription removed
                                    # (games/notifications/database_grants.py)
                                    "games_pushsubscription",
                                    # issue 42: a player removes their e-mail address;
                                    # an erased account's address and mail log
                                    # (games/mail/database_grants.py)
                                    "games_mailaddress", "games_mail"}), table


@pytest.fixture
def as_runtime_role():
    """The ORM (and so every request of the test client) connects as the runtime role."""
    runtime = _runtime_credentials()
    default = connections["default"]
    saved = dict(default.settings_dict)

    def drop() -> None:  # the connection, and the pool (DB_POOL) that made it
        default.close()
        if hasattr(default, "close_pool"):
            default.close_pool()

    drop()
    # with the runtime role's session options too (its statement and lock timeouts)
    default.settings_dict.update(USER=runtime["USER"], PASSWORD=runtime["PASSWORD"],
                                 OPTIONS=dict(runtime.get("OPTIONS", {})))
    try:
        yield
    finally:
        drop()
        default.settings_dict.clear()
        default.settings_dict.update(saved)


def test_the_service_works_as_the_runtime_role(as_runtime_role, api_client):
    """Register, sign in, create, join, leave, play to the end, score, sign out: all
    through the API with only the runtime role's privileges."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == settings.RUNTIME_DATABASE["USER"]
    keys = []
    for name in ("runtime_alice", "runtime_bob"):
        response = api_client.post(f"{API}/auth/register/",
                                   {"username": name, "password": "a-long-enough-pass-9"},
                                   format="json")
        assert response.status_code == 201, response.content
        response = api_client.post(f"{API}/auth/token/",
                                   {"username": name, "password": "a-long-enough-pass-9"},
                                   format="json")
        assert response.status_code in (200, 201), response.content
        keys.append(response.json()["token"])
    clients = []
    for key in keys:
        client = type(api_client)()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        clients.append(client)

    lobby = clients[0].post(f"{API}/matches/", {"game": "han", "players": 3}, format="json")
    assert lobby.status_code == 201, lobby.content
    lobby_id = lobby.json()["id"]
    assert clients[1].post(match_url(lobby_id, "join/")).status_code in (200, 201)
    assert clients[1].post(match_url(lobby_id, "leave/")).status_code in (200, 204)

    with eager_celery():
        response = clients[0].post(f"{API}/matches/", {"game": "han", "players": 2,
                                                       "bot_seats": {"1": "greedy"}},
                                   format="json")
        assert response.status_code == 201, response.content
        match_id = response.json()["id"]
        play_human_turns({0: clients[0]}, match_id)

    assert clients[0].get(match_url(match_id, "result/")).status_code == 200
    assert Match.objects.get(pk=match_id).status == "finished"
    assert clients[0].delete(f"{API}/auth/token/").status_code in (200, 204)
    assert User.objects.filter(username="runtime_alice").exists()


# -- users and tokens: column privileges (issue 21) -------------------------------------------
# The runtime role could UPDATE every column of accounts_user (is_superuser too) and of
# authtoken_token. Now it may change only what the service changes after creating a row:
# a user's password (the password change, a hash upgrade at login) and last_login (a
# session login); a token is created and deleted, never changed. It still inserts users
# (registration), but never a staff user or a superuser.
@pytest.fixture
def someone(make_user):
    user = make_user(username="someone", email="someone@example.org")
    return user, Token.objects.create(user=user)


@pytest.mark.parametrize("assignment", [
    "is_superuser = true", "is_staff = true", "is_active = false", "username = 'admin2'",
    "email = 'thief@example.org'", "date_joined = now()", "first_name = 'x'",
])
def test_the_runtime_role_cannot_change_a_users_standing(runtime_sql, someone, assignment):
    user, _token = someone
    _refused(runtime_sql, f"UPDATE accounts_user SET {assignment} WHERE id = %s", [user.pk])
    user.refresh_from_db()
    assert not user.is_superuser and not user.is_staff and user.is_active
    assert (user.username, user.email) == ("someone", "someone@example.org")


@pytest.mark.parametrize("assignment", ["key = repeat('0', 40)", "user_id = user_id",
                                        "created = now()"])
def test_the_runtime_role_cannot_change_a_token(runtime_sql, someone, assignment):
    _user, token = someone
    _refused(runtime_sql, f"UPDATE authtoken_token SET {assignment} WHERE key = %s",
             [token.key])
    assert Token.objects.get(user=token.user_id).key == token.key


def test_the_runtime_role_creates_no_staff_and_no_superuser(runtime_sql):
    insert = ("INSERT INTO accounts_user (password, username, first_name, last_name, email, "
              "is_superuser, is_staff, is_active, date_joined) "
              "VALUES ('!', %s, '', '', '', %s, %s, true, now())")
    for name, superuser, staff in (("root2", True, False), ("staff2", False, True)):
        _refused(runtime_sql, insert, [name, superuser, staff])
    runtime_sql.execute(insert, ["plain", False, False])  # registration's insert
    assert User.objects.filter(username="plain").exists()
    assert not User.objects.filter(username__in=["root2", "staff2"]).exists()


def test_the_runtime_role_changes_only_passwords_and_last_logins(runtime_sql):
    rows = runtime_sql.execute(
        "SELECT table_name, column_name FROM information_schema.column_privileges "
        "WHERE grantee = current_user AND privilege_type = 'UPDATE' "
        "AND table_name IN ('accounts_user', 'authtoken_token')").fetchall()
    assert sorted(rows) == [("accounts_user", "last_login"), ("accounts_user", "password")]


def test_the_runtime_role_may_call_the_erase_function_and_nobody_else_may(runtime_sql):
    rows = runtime_sql.execute(
        "SELECT has_function_privilege(current_user, 'accounts_erase_user(bigint, text)', "
        "'EXECUTE'), has_function_privilege('public', 'accounts_erase_user(bigint, text)', "
        "'EXECUTE'), pg_get_userbyid(p.proowner) <> current_user, p.prosecdef "
        "FROM pg_proc p WHERE p.proname = 'accounts_erase_user'").fetchall()
    assert rows == [(True, False, True, True)]


@pytest.fixture
def boss_and_player(make_user):
    """Made by the owner, as createsuperuser would (the runtime cannot make a superuser)."""
    return (make_user("boss", password="old-pass-123!", is_staff=True, is_superuser=True),
            make_user("player", password="old-pass-123!"))


def test_logging_in_and_changing_passwords_work_as_the_runtime_role(boss_and_player,
                                                                    as_runtime_role, client):
    """The admin's flows that write users: a session login (last_login), changing your
    own password, an admin changing another's, and the user page (read-only now)."""
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT current_user")
        assert cursor.fetchone()[0] == settings.RUNTIME_DATABASE["USER"]
    admin, player = boss_and_player
    response = client.post("/admin/login/", {"username": "boss", "password": "old-pass-123!",
                                             "next": "/admin/"})
    assert response.status_code == 302, response.content[:300]
    assert User.objects.get(pk=admin.pk).last_login is not None

    response = client.post("/admin/password_change/", {
        "old_password": "old-pass-123!", "new_password1": "brand-new-pass-456!",
        "new_password2": "brand-new-pass-456!"})
    assert response.status_code == 302, response.content[:500]
    assert User.objects.get(pk=admin.pk).check_password("brand-new-pass-456!")

    response = client.post(f"/admin/accounts/user/{player.pk}/password/", {
        "password1": "another-pass-789!", "password2": "another-pass-789!",
        "usable_password": "true"})
    assert response.status_code == 302, response.content[:500]
    assert User.objects.get(pk=player.pk).check_password("another-pass-789!")

    page = client.get(f"/admin/accounts/user/{player.pk}/change/")
    assert page.status_code == 200
    response = client.post(f"/admin/accounts/user/{player.pk}/change/",
                           {"is_superuser": "on", "is_staff": "on", "username": "x"})
    assert response.status_code == 302, response.content[:500]  # nothing to save there
    player.refresh_from_db()
    assert not player.is_superuser and not player.is_staff and player.username == "player"
    # deleting a player erases the account (tests/accounts/test_erasure.py); an
    # administrator's is the owner's to remove
    assert client.get(f"/admin/accounts/user/{admin.pk}/delete/").status_code == 403



# -- grants in one transaction, only the difference (issue 40) --------------------------------
# Every migrate revoked and granted again every table's privileges in autocommit and dropped
# and made again the row policies: requests in between were refused (a 500 during every
# deploy: tests/infra/test_migrate_under_load.py). Now a migrate changes only what differs
# from the declarations, in one transaction; with nothing to change it runs no statement.
def test_every_capability_with_models_declares_its_runtime_grants():
    from django.apps import apps

    from infra.database_roles import declaring_modules

    declaring = set(declaring_modules())
    project = {model.__module__.rpartition(".")[0] for model in apps.get_models()
               if model.__module__.split(".")[0] in ("games", "accounts")}
    assert {f"{package}.database_grants" for package in project} <= declaring, project
    assert "games.analysis.database_grants" in declaring


def test_a_second_grant_changes_nothing_and_a_drift_is_mended_alone():
    from infra.database_roles import grant_runtime_privileges, privilege_changes

    if connection.settings_dict["USER"] == settings.RUNTIME_DATABASE["USER"]:
        pytest.skip("the suite connects as the runtime role: set DATABASE_OWNER_URL")
    runtime = connection.ops.quote_name(settings.RUNTIME_DATABASE["USER"])
    assert grant_runtime_privileges()
    assert privilege_changes() == []
    with connection.cursor() as cursor:
        cursor.execute(f"REVOKE DELETE ON games_seat FROM {runtime}")
        cursor.execute(f"GRANT TRUNCATE ON games_move TO {runtime}")
        cursor.execute("COMMENT ON POLICY runtime_makes_no_staff ON accounts_user IS 'true'")
    try:
        assert sorted(privilege_changes()) == sorted([
            f'GRANT DELETE ON "games_seat" TO {runtime}',
            f'REVOKE TRUNCATE ON "games_move" FROM {runtime}',
            f'ALTER POLICY runtime_makes_no_staff ON "accounts_user" TO {runtime} '
            "WITH CHECK (NOT is_superuser AND NOT is_staff)",
            'COMMENT ON POLICY runtime_makes_no_staff ON "accounts_user" IS '
            "'NOT is_superuser AND NOT is_staff'",
        ])
    finally:
        assert grant_runtime_privileges()
    assert privilege_changes() == []


def test_the_runtime_role_may_delete_an_analysis_decisions_and_no_move(runtime_sql):
    """Re-judging an analysis deletes its decisions (games.analysis.services._judge_again):
    the runtime role could not (tests/games/analysis/test_analysis_api.py runs the path as
    it)."""
    runtime_sql.execute("DELETE FROM games_analyseddecision WHERE false")
    _refused(runtime_sql, "DELETE FROM games_move WHERE false")
