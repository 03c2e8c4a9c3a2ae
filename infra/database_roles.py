"""The runtime database role's privileges, granted after every ``migrate``.

Migrations run as the owner role (DATABASE_OWNER_URL); the web server and the workers
connect as the runtime role (DATABASE_URL, role DATABASE_RUNTIME_ROLE) which owns nothing,
so it cannot TRUNCATE, ALTER or DROP a table, nor disable the move log's triggers. After
each migrate (post_migrate, idempotent) the owner grants it, on every table in the
schema - including those a future migration adds - SELECT, INSERT and UPDATE, except
where an app has declared less (``declare``, from its ``AppConfig.ready``):

- ``no_update``: no UPDATE at all (append-only logs, rows rewritten whole, tokens);
- ``fixed_columns``: UPDATE of every column but these (a future column is updatable);
- ``updatable_columns``: UPDATE of these columns only;
- ``deletable``: DELETE, only where the code deletes;
- ``functions``: EXECUTE on the owner's functions (SECURITY DEFINER: each checks what it
  does);
- ``insert_checks``: a row-level policy the rows the runtime inserts must pass;

and nothing but SELECT on django_migrations. This module knows no table of the service:
what each app's tables allow, and why, is said where it declares them
(accounts/database_privileges.py, games/database_privileges.py).

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
from collections.abc import Mapping
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connections

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class InsertCheck:
    """Row-level security on ``table``: every role sees and writes every row as its
    privileges allow (the permissive policy ``everyone``), but a row the runtime inserts
    must pass ``check`` (the restrictive policy ``name``, an SQL condition). The owner,
    who owns the table, bypasses both."""

    everyone: str
    name: str
    check: str


@dataclass(frozen=True)
class RuntimePrivileges:
    """What an app's tables allow the runtime role beyond SELECT, INSERT and UPDATE (the
    module's docstring); tables by name, as in the database."""

    no_update: frozenset[str] = frozenset()
    fixed_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    updatable_columns: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    deletable: frozenset[str] = frozenset()
    read_only: frozenset[str] = frozenset()
    functions: tuple[str, ...] = ()
    insert_checks: Mapping[str, InsertCheck] = field(default_factory=dict)

    def __or__(self, other: RuntimePrivileges) -> RuntimePrivileges:
        return RuntimePrivileges(
            no_update=self.no_update | other.no_update,
            fixed_columns={**self.fixed_columns, **other.fixed_columns},
            updatable_columns={**self.updatable_columns, **other.updatable_columns},
            deletable=self.deletable | other.deletable,
            read_only=self.read_only | other.read_only,
            functions=(*self.functions, *other.functions),
            insert_checks={**self.insert_checks, **other.insert_checks},
        )

    def updates_whole_table(self, table: str) -> bool:
        return not (table in self.no_update or table in self.fixed_columns
                    or table in self.updatable_columns)


#: Django's own: the migrations' record is read, never written, by the runtime
DJANGO_PRIVILEGES = RuntimePrivileges(read_only=frozenset({"django_migrations"}))

_declared: dict[str, RuntimePrivileges] = {}


def declare(app_label: str, privileges: RuntimePrivileges) -> None:
    """An app's tables' privileges (from its ``AppConfig.ready``: its models' tables are
    known by then); declaring again replaces the app's previous declaration."""
    _declared[app_label] = privileges


def declared() -> RuntimePrivileges:
    merged = DJANGO_PRIVILEGES
    for privileges in _declared.values():
        merged = merged | privileges
    return merged


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
        rules = declared()
        quote = connection.ops.quote_name
        grantee = quote(role)
        cursor.execute(f"GRANT USAGE ON SCHEMA public TO {grantee}")
        cursor.execute(f"GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO {grantee}")
        tables = connection.introspection.table_names(cursor)
        for table in tables:
            name = quote(table)
            cursor.execute(f"REVOKE ALL ON {name} FROM {grantee}")
            privileges = ["SELECT"]
            if table not in rules.read_only:
                privileges.append("INSERT")
                if rules.updates_whole_table(table):
                    privileges.append("UPDATE")
                if table in rules.deletable:
                    privileges.append("DELETE")
            cursor.execute(f"GRANT {', '.join(privileges)} ON {name} TO {grantee}")
            updatable = _updatable_columns(connection, cursor, table, rules)
            if updatable is not None:
                _grant_column_updates(connection, cursor, table, grantee, updatable)
        for table, check in rules.insert_checks.items():
            if table in tables:
                _check_runtime_inserts(connection, cursor, table, grantee, check)
        _grant_functions(cursor, grantee, rules.functions)
    return True


def _grant_functions(cursor, grantee: str, functions: tuple[str, ...]) -> None:
    for function in functions:
        cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL", [function])
        if cursor.fetchone()[0]:  # created by its migration (absent while migrating back)
            cursor.execute(f"GRANT EXECUTE ON FUNCTION {function} TO {grantee}")


def _updatable_columns(connection, cursor, table: str,
                       rules: RuntimePrivileges) -> list[str] | None:
    """The columns of ``table`` the runtime may update one by one; None when the table
    takes no column grants (its UPDATE, if any, is on the whole table)."""
    if table not in rules.fixed_columns and table not in rules.updatable_columns:
        return None
    every = [column.name for column in
             connection.introspection.get_table_description(cursor, table)]
    if table in rules.fixed_columns:
        return [column for column in every if column not in rules.fixed_columns[table]]
    return [column for column in every if column in rules.updatable_columns[table]]


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


def _check_runtime_inserts(connection, cursor, table: str, grantee: str,
                           check: InsertCheck) -> None:
    """``check`` on ``table`` (InsertCheck): row-level security, its two policies made
    afresh."""
    name = connection.ops.quote_name(table)
    cursor.execute(f"ALTER TABLE {name} ENABLE ROW LEVEL SECURITY")
    for policy in (check.everyone, check.name):
        cursor.execute(f"DROP POLICY IF EXISTS {policy} ON {name}")
    cursor.execute(f"CREATE POLICY {check.everyone} ON {name} USING (true) WITH CHECK (true)")
    cursor.execute(f"CREATE POLICY {check.name} ON {name} AS RESTRICTIVE FOR INSERT "
                   f"TO {grantee} WITH CHECK ({check.check})")


def grant_after_migrate(sender, using="default", **kwargs) -> None:
    """post_migrate receiver (connected once, in games.apps)."""
    grant_runtime_privileges(using)
