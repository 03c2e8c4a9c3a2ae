"""The runtime database role's privileges, granted after every ``migrate``.

Migrations run as the owner role (DATABASE_OWNER_URL); the web server and the workers
connect as the runtime role (DATABASE_URL, role DATABASE_RUNTIME_ROLE) which owns nothing,
so it cannot TRUNCATE, ALTER or DROP a table, nor disable the move log's triggers. After
each migrate (post_migrate, idempotent) the owner grants it, on every table in the
schema - including those a future migration adds - SELECT, INSERT and UPDATE, except
where a capability has declared otherwise, in a ``database_grants.py`` beside its models
(a function ``runtime_privileges()`` returning ``RuntimePrivileges``; found by
``declaring_modules``):

- ``no_update``: no UPDATE at all (append-only logs, rows rewritten whole, tokens);
- ``fixed_columns``: UPDATE of every column but these (a future column is updatable);
- ``updatable_columns``: UPDATE of these columns only;
- ``deletable``: DELETE, only where the code deletes;
- ``functions``: EXECUTE on the owner's functions (SECURITY DEFINER: each checks what it
  does);
- ``insert_checks``: a row-level policy the rows the runtime inserts must pass;

and nothing but SELECT on django_migrations. This module knows no table of the service:
what each capability's tables allow, and why, is said beside its models
(accounts/database_grants.py, games/matches/database_grants.py, ...).

The grants and policies change in one transaction and only where they differ from the
declarations (``grant_runtime_privileges``): requests served during a deploy's ``migrate``
never meet a table between a REVOKE and a GRANT.

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
from importlib import import_module

from django.apps import apps
from django.conf import settings
from django.db import connections, transaction

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

#: the module, beside a capability's models, that declares its tables' privileges
GRANTS_MODULE = "database_grants"


def declaring_modules() -> list[str]:
    """Every ``database_grants`` module found beside a model's module (``<package>.models``
    or another module of the package): each capability says what its own tables allow,
    and this module names none of them. A package with models and no such module is
    refused (tests/infra/test_database_roles.py), so a new capability decides."""
    found = []
    for model in apps.get_models(include_auto_created=True):
        package = model.__module__.rpartition(".")[0]
        name = f"{package}.{GRANTS_MODULE}"
        if name in found:
            continue
        try:
            import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            continue
        found.append(name)
    return found


def declared() -> RuntimePrivileges:
    merged = DJANGO_PRIVILEGES
    for name in declaring_modules():
        merged = merged | import_module(name).runtime_privileges()
    return merged


def runtime_role() -> str:
    return settings.DATABASE_RUNTIME_ROLE


def grant_runtime_privileges(using: str = "default") -> bool:
    """Bring the runtime role's privileges and row policies to what is declared, in one
    transaction and only where they differ; False (and a log line) when there is nothing
    to do: the role is the one migrating, or does not exist.

    One transaction, because requests run while a deploy's ``migrate`` does: other
    sessions see the old privileges until the commit and the new ones after it, never a
    table between a REVOKE and its GRANT (a request's ``permission denied``, a 500) nor a
    table between a policy's DROP and its CREATE. Only the difference, because a
    ``migrate`` with nothing to apply should change nothing: a second run issues no
    GRANT, REVOKE or policy statement at all."""
    role = runtime_role()
    connection = connections[using]
    if connection.vendor != "postgresql":
        return False
    with transaction.atomic(using=using), connection.cursor() as cursor:
        cursor.execute("SELECT current_user, EXISTS (SELECT FROM pg_roles WHERE rolname = %s)",
                       [role])
        current, exists = cursor.fetchone()
        if current == role or not exists:
            logger.warning(
                "runtime role %r %s: no privileges granted (run migrations as the owner, "
                "DATABASE_OWNER_URL; docs/operations.md)", role,
                "is the role migrating" if current == role else "does not exist")
            return False
        # two migrates at once (two deploys) take turns rather than interleave
        cursor.execute("SELECT pg_advisory_xact_lock(hashtext('grant_runtime_privileges'))")
        statements = _changes(connection, cursor, role)
        for statement in statements:
            cursor.execute(statement)
    if statements:
        logger.info("runtime role %r: %d privilege statements applied", role, len(statements))
    return True


def privilege_changes(using: str = "default") -> list[str]:
    """The statements ``grant_runtime_privileges`` would run now (none once it ran)."""
    connection = connections[using]
    with connection.cursor() as cursor:
        return _changes(connection, cursor, runtime_role())


def _changes(connection, cursor, role: str) -> list[str]:
    rules = declared()
    grantee = connection.ops.quote_name(role)
    tables = connection.introspection.table_names(cursor)
    return [
        *_schema_and_sequences(cursor, role, grantee),
        *_table_statements(connection, cursor, role, grantee, tables, rules),
        *_policy_statements(connection, cursor, role, grantee, tables, rules),
        *_function_statements(cursor, role, grantee, rules.functions),
    ]


def wanted_table_privileges(table: str, rules: RuntimePrivileges) -> set[str]:
    """The table-wide privileges the runtime role holds on ``table`` (column grants
    apart)."""
    privileges = {"SELECT"}
    if table not in rules.read_only:
        privileges.add("INSERT")
        if rules.updates_whole_table(table):
            privileges.add("UPDATE")
        if table in rules.deletable:
            privileges.add("DELETE")
    return privileges


def _schema_and_sequences(cursor, role: str, grantee: str) -> list[str]:
    statements = []
    cursor.execute("SELECT has_schema_privilege(%s, 'public', 'USAGE')", [role])
    if not cursor.fetchone()[0]:
        statements.append(f"GRANT USAGE ON SCHEMA public TO {grantee}")
    cursor.execute(
        "SELECT c.oid::regclass::text FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE n.nspname = 'public' AND c.relkind = 'S' "
        "AND NOT (has_sequence_privilege(%s, c.oid, 'USAGE') "
        "AND has_sequence_privilege(%s, c.oid, 'SELECT'))", [role, role])
    statements += [f"GRANT USAGE, SELECT ON SEQUENCE {name} TO {grantee}"
                   for (name,) in cursor.fetchall()]
    return statements


def _held(cursor, role: str) -> tuple[dict[str, set[str]], dict[tuple[str, str], set[str]]]:
    """What the role holds now, granted to it by name (not through PUBLIC): table-wide
    privileges by table, column privileges by (table, column)."""
    tables: dict[str, set[str]] = {}
    cursor.execute(
        "SELECT c.relname, a.privilege_type FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "CROSS JOIN LATERAL aclexplode(c.relacl) a "
        "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f') "
        "AND a.grantee = %s::regrole", [role])
    for table, privilege in cursor.fetchall():
        tables.setdefault(table, set()).add(privilege)
    columns: dict[tuple[str, str], set[str]] = {}
    cursor.execute(
        "SELECT c.relname, att.attname, a.privilege_type FROM pg_attribute att "
        "JOIN pg_class c ON c.oid = att.attrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "CROSS JOIN LATERAL aclexplode(att.attacl) a "
        "WHERE n.nspname = 'public' AND att.attnum > 0 AND NOT att.attisdropped "
        "AND a.grantee = %s::regrole", [role])
    for table, column, privilege in cursor.fetchall():
        columns.setdefault((table, column), set()).add(privilege)
    return tables, columns


def _table_statements(connection, cursor, role: str, grantee: str, tables: list[str],
                      rules: RuntimePrivileges) -> list[str]:
    quote = connection.ops.quote_name
    held_tables, held_columns = _held(cursor, role)
    statements = []
    for table in tables:
        name = quote(table)
        wanted = wanted_table_privileges(table, rules)
        held = held_tables.get(table, set())
        if "UPDATE" in held - wanted:  # revoked table-wide, it goes from every column too
            for (of_table, _column), privileges in held_columns.items():
                if of_table == table:
                    privileges.discard("UPDATE")
        if held - wanted:
            statements.append(f"REVOKE {', '.join(sorted(held - wanted))} ON {name} "
                              f"FROM {grantee}")
        if wanted - held:
            statements.append(f"GRANT {', '.join(sorted(wanted - held))} ON {name} "
                              f"TO {grantee}")
        updatable = set(_updatable_columns(connection, cursor, table, rules) or ())
        every = [column.name for column in
                 connection.introspection.get_table_description(cursor, table)]
        for column in every:
            held_column = held_columns.get((table, column), set())
            wanted_column = {"UPDATE"} if column in updatable else set()
            if held_column - wanted_column:
                statements.append(f"REVOKE {', '.join(sorted(held_column - wanted_column))} "
                                  f"({quote(column)}) ON {name} FROM {grantee}")
            if wanted_column - held_column:
                statements.append(f"GRANT UPDATE ({quote(column)}) ON {name} TO {grantee}")
    return statements


def _function_statements(cursor, role: str, grantee: str,
                         functions: tuple[str, ...]) -> list[str]:
    statements = []
    for function in functions:
        # absent while migrating back past the migration that creates it
        cursor.execute("SELECT to_regprocedure(%s) IS NOT NULL "
                       "AND NOT has_function_privilege(%s, to_regprocedure(%s), 'EXECUTE')",
                       [function, role, function])
        if cursor.fetchone()[0]:
            statements.append(f"GRANT EXECUTE ON FUNCTION {function} TO {grantee}")
    return statements


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


def _policy_statements(connection, cursor, role: str, grantee: str, tables: list[str],
                       rules: RuntimePrivileges) -> list[str]:
    """Each declared InsertCheck's row-level security: enabled, and its two policies made
    or altered in place (ALTER POLICY: never a window without one). The restrictive
    policy's condition is compared through its comment, which holds the declared text (the
    catalog keeps it re-written by PostgreSQL's deparser)."""
    statements = []
    for table, check in rules.insert_checks.items():
        if table not in tables:
            continue
        name = connection.ops.quote_name(table)
        cursor.execute("SELECT relrowsecurity FROM pg_class WHERE oid = %s::regclass", [name])
        if not cursor.fetchone()[0]:
            statements.append(f"ALTER TABLE {name} ENABLE ROW LEVEL SECURITY")
        cursor.execute(
            "SELECT p.polname, p.polpermissive, p.polcmd, "
            "ARRAY(SELECT COALESCE(r.rolname, 'public') FROM unnest(p.polroles) AS u(oid) "
            "      LEFT JOIN pg_roles r ON r.oid = u.oid), "
            "pg_get_expr(p.polqual, p.polrelid), pg_get_expr(p.polwithcheck, p.polrelid), "
            "obj_description(p.oid, 'pg_policy') "
            "FROM pg_policy p WHERE p.polrelid = %s::regclass", [name])
        existing = {row[0]: row[1:] for row in cursor.fetchall()}
        everyone = existing.get(check.everyone)
        if everyone is None:
            statements.append(f"CREATE POLICY {check.everyone} ON {name} "
                              f"USING (true) WITH CHECK (true)")
        elif (everyone[0], everyone[1], everyone[2], everyone[3], everyone[4]) != (
                True, "*", ["public"], "true", "true"):
            if (everyone[0], everyone[1]) != (True, "*"):  # ALTER cannot change these
                statements.append(f"DROP POLICY {check.everyone} ON {name}")
                statements.append(f"CREATE POLICY {check.everyone} ON {name} "
                                  f"USING (true) WITH CHECK (true)")
            else:
                statements.append(f"ALTER POLICY {check.everyone} ON {name} TO PUBLIC "
                                  f"USING (true) WITH CHECK (true)")
        restrictive = existing.get(check.name)
        comment = "'" + check.check.replace("'", "''") + "'"  # an SQL string literal
        if restrictive is None or (restrictive[0], restrictive[1]) != (False, "a"):
            if restrictive is not None:  # ALTER cannot change its kind or command
                statements.append(f"DROP POLICY {check.name} ON {name}")
            statements.append(f"CREATE POLICY {check.name} ON {name} AS RESTRICTIVE "
                              f"FOR INSERT TO {grantee} WITH CHECK ({check.check})")
            statements.append(f"COMMENT ON POLICY {check.name} ON {name} IS {comment}")
        elif restrictive[2] != [role] or restrictive[5] != check.check:
            statements.append(f"ALTER POLICY {check.name} ON {name} TO {grantee} "
                              f"WITH CHECK ({check.check})")
            statements.append(f"COMMENT ON POLICY {check.name} ON {name} IS {comment}")
    return statements


def grant_after_migrate(sender, using="default", **kwargs) -> None:
    """post_migrate receiver (connected once, in games.apps)."""
    grant_runtime_privileges(using)
