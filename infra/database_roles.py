"""The runtime database role's privileges, granted after every ``migrate``.

Migrations run as the owner role (DATABASE_OWNER_URL); the web server and the workers
connect as the runtime role (DATABASE_URL, role DATABASE_RUNTIME_ROLE) which owns nothing,
so it cannot TRUNCATE, ALTER or DROP a table, nor disable the move log's triggers. After
each migrate (post_migrate, idempotent) the owner grants it, on every table in the
schema - including those a future migration adds:

- SELECT, INSERT and UPDATE; on games_match no UPDATE of the columns fixed at creation
  (the seed and its commitment, the game, players, options, rules version);
- on accounts_user UPDATE of ``password`` and ``last_login`` only: what the service
  changes after registration (a password change, a hash upgraded at login, a session
  login), never ``is_superuser``, ``is_staff``, ``is_active`` or a name; and no INSERT of
  a staff user or a superuser (a row-level policy): who holds power is the owner's to say
  (``createsuperuser`` and the like, run as the owner);
- no UPDATE at all on the append-only logs (games_move, games_incident), on
  games_result (rewritten whole) and on authtoken_token (created and deleted, never
  changed);
- DELETE only where the code deletes: sessions (logout), tokens (revoke), seats (leave),
  results (re-scoring), a leaver's feed events (erasure), and the admin's group and
  permission links;
- nothing but SELECT on django_migrations;
- EXECUTE on ``accounts_erase_user`` (accounts/migrations/0003), the owner's function that
  turns an account into a tombstone: the one change of a username, an email or
  ``is_active`` the runtime can make (accounts/erasure.py).

What it cannot prevent: the runtime role must INSERT moves and UPDATE matches and results
to play at all, so a stolen runtime password can still append a well-formed move or
rewrite a result; the log's own triggers refuse gaps, updates and deletes, and a result
can always be recomputed from the log (admin "re-score"). It reads token keys and sets
passwords (sign-in and the password change need both), so it can act as an existing
user, a superuser too, within its own privileges; it cannot make anyone staff or
superuser, nor change who is.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

#: tables the code deletes rows from (checked against the code: services and views)
DELETABLE = {
    "django_session",  # logout, expired sessions
    "authtoken_token",  # accounts.services.revoke_token
    "games_seat",  # games.matches.services.leave_match
    "games_result",  # games.matches.scoring.score_match(rescore=True) rewrites the results
    "games_feedevent",  # games.leaving.services: an erased account's feed goes with it
    "accounts_user_groups",  # the admin editing a user's groups and permissions
    "accounts_user_user_permissions",
    "auth_group_permissions",
}
#: columns of games_match fixed at creation: the seed, its commitment and what was agreed
#: to play (every other column, a future one too, is updatable: play changes them)
MATCH_FIXED = ("id", "game", "players", "options", "seed", "seed_commitment",
               "rules_version", "created_at")
#: the only columns of accounts_user the code updates (checked against the code):
#: set_password + save(update_fields=["password"]) in the admin's password changes and
#: Django's hash upgrade at login; update_last_login on a session login. Registration
#: and the bot accounts insert whole rows.
USER_UPDATABLE = ("password", "last_login")
#: append-only logs (their triggers refuse updates too), results (rewritten whole) and
#: tokens (created and deleted); games_match and accounts_user: only some columns
NO_UPDATE = {"games_move", "games_incident", "games_result", "authtoken_token",
             "games_match", "accounts_user"}
READ_ONLY = {"django_migrations"}
#: the owner's functions the runtime may call (SECURITY DEFINER: each checks what it does)
RUNTIME_FUNCTIONS = ("accounts_erase_user(bigint, text)",)
#: the row-level policy on accounts_user: the runtime inserts no staff and no superuser
USER_POLICIES = ("every_role_every_user", "runtime_makes_no_staff")


def runtime_role() -> str:
    return settings.DATABASE_RUNTIME_ROLE


def grant_runtime_privileges(using: str = "default") -> bool:
    """Grant the runtime role its privileges on every table; False (and a log line) when
    there is nothing to do: the role is the one migrating, or does not exist."""
    role = runtime_role()
    connection = connections[using]
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user, EXISTS (SELECT FROM pg_roles WHERE rolname = %s)",
                       [role])
        current, exists = cursor.fetchone()
        if current == role or not exists:
            logger.warning(
                "runtime role %r %s: no privileges granted (run migrations as the owner, "
                "DATABASE_OWNER_URL; docs/operations.md)", role,
                "is the role migrating" if current == role else "does not exist")
            return False
        quote = connection.ops.quote_name
        grantee = quote(role)
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {grantee}")
        cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {grantee}")
        for table in connection.introspection.table_names(cursor):
            name = quote(table)
            cursor.execute(f"REVOKE ALL ON {name} FROM {grantee}")
            privileges = ["SELECT"]
            if table not in READ_ONLY:
                privileges.append("INSERT")
                if table not in NO_UPDATE:
                    privileges.append("UPDATE")
                if table in DELETABLE:
                    privileges.append("DELETE")
            cursor.execute(f"GRANT {', '.join(privileges)} ON {name} TO {grantee}")
            updatable = _updatable_columns(connection, cursor, table)
            if updatable is not None:
                _grant_column_updates(connection, cursor, table, grantee, updatable)
        _runtime_inserts_no_staff(connection, cursor, grantee)
        _grant_functions(cursor, grantee)
    return True


def _grant_functions(cursor, grantee: str) -> None:
    for function in RUNTIME_FUNCTIONS:
        cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL", [function])
        if cursor.fetchone()[0]:  # created by its migration (absent while migrating back)
            cursor.execute(f"GRANT EXECUTE ON FUNCTION {function} TO {grantee}")


def _updatable_columns(connection, cursor, table: str) -> list[str] | None:
    """The columns of ``table`` the runtime may update one by one; None when the table
    takes no column grants (its UPDATE, if any, is on the whole table)."""
    if table not in ("games_match", "accounts_user"):
        return None
    every = [column.name for column in
             connection.introspection.get_table_description(cursor, table)]
    if table == "games_match":
        return [column for column in every if column not in MATCH_FIXED]
    return [column for column in every if column in USER_UPDATABLE]


def _grant_column_updates(connection, cursor, table: str, grantee: str,
                          columns: list[str]) -> None:
    # column grants outlive REVOKE ALL on the table: reset them, then grant
    quote = connection.ops.quote_name
    every = [column.name for column in
             connection.introspection.get_table_description(cursor, table)]
    cursor.execute(f"REVOKE UPDATE ({', '.join(map(quote, every))}) ON {quote(table)} "
                   f"FROM {grantee}")
    cursor.execute(f"GRANT UPDATE ({', '.join(map(quote, columns))}) ON {quote(table)} "
                   f"TO {grantee}")


def _runtime_inserts_no_staff(connection, cursor, grantee: str) -> None:
    """Row-level security on accounts_user: every role sees and writes every row as its
    privileges allow (the first policy), but a row the runtime inserts is no staff user
    and no superuser (the second, restrictive). The owner, who owns the table, bypasses
    both: createsuperuser runs as the owner."""
    user_table = connection.ops.quote_name("accounts_user")
    if "accounts_user" not in connection.introspection.table_names(cursor):
        return
    everyone, no_staff = USER_POLICIES
    cursor.execute(f"ALTER TABLE {user_table} ENABLE ROW LEVEL SECURITY")
    for policy in USER_POLICIES:
        cursor.execute(f"DROP POLICY IF EXISTS {policy} ON {user_table}")
    cursor.execute(f"CREATE POLICY {everyone} ON {user_table} USING (true) WITH CHECK (true)")
    cursor.execute(f"CREATE POLICY {no_staff} ON {user_table} AS RESTRICTIVE FOR INSERT "
                   f"TO {grantee} WITH CHECK (NOT is_superuser AND NOT is_staff)")


def grant_after_migrate(sender, using="default", **kwargs) -> None:
    """post_migrate receiver (connected once, in games.apps)."""
    grant_runtime_privileges(using)
