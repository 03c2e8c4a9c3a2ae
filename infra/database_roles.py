"""The runtime database role's privileges, granted after every ``migrate``.

Migrations run as the owner role (DATABASE_OWNER_URL); the web server and the workers
connect as the runtime role (DATABASE_URL, role DATABASE_RUNTIME_ROLE) which owns nothing,
so it cannot TRUNCATE, ALTER or DROP a table, nor disable the move log's triggers. After
each migrate (post_migrate, idempotent) the owner grants it, on every table in the
schema - including those a future migration adds:

- SELECT, INSERT and UPDATE; on games_match no UPDATE of the columns fixed at creation
  (the seed and its commitment, the game, players, options, rules version);
- no UPDATE at all on the append-only logs (games_move, games_incident) and on
  games_result (rewritten whole);
- DELETE only where the code deletes: sessions (logout), tokens (revoke), seats (leave),
  results (re-scoring), and the admin's group and permission links;
- nothing but SELECT on django_migrations.

What it cannot prevent: the runtime role must INSERT moves and UPDATE matches and results
to play at all, so a stolen runtime password can still append a well-formed move or
rewrite a result; the log's own triggers refuse gaps, updates and deletes, and a result
can always be recomputed from the log (admin "re-score").
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
    "accounts_user_groups",  # the admin editing a user's groups and permissions
    "accounts_user_user_permissions",
    "auth_group_permissions",
}
#: columns of games_match fixed at creation: the seed, its commitment and what was agreed
#: to play (every other column, a future one too, is updatable: play changes them)
MATCH_FIXED = ("id", "game", "players", "options", "seed", "seed_commitment",
               "rules_version", "created_at")
#: append-only logs (their triggers refuse updates too) and results (rewritten whole);
#: games_match: every column but MATCH_FIXED
NO_UPDATE = {"games_move", "games_incident", "games_result", "games_match"}
READ_ONLY = {"django_migrations"}


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
            if table == "games_match":  # column grants outlive REVOKE ALL: reset them
                every = [column.name for column in
                         connection.introspection.get_table_description(cursor, table)]
                columns = ", ".join(quote(column) for column in every)
                cursor.execute(f"REVOKE UPDATE ({columns}) ON {name} FROM {grantee}")
                columns = ", ".join(quote(column) for column in every
                                    if column not in MATCH_FIXED)
                cursor.execute(f"GRANT UPDATE ({columns}) ON {name} TO {grantee}")
    return True


def grant_after_migrate(sender, using="default", **kwargs) -> None:
    """post_migrate receiver (connected once, in games.apps)."""
    grant_runtime_privileges(using)
