"""What django-migration-linter does not look at: a migration's effect on the rows already
stored (issue 40). The linter reads the schema change a migration makes (its SQL); it
passed 0015, which deletes every analysis, and 0016, whose ``db_default=2`` stamps every
row written by a release that does not know the column - the old release, still serving
during a rolling restart - with the new judge's version. So, for each migration:

- ``deletes rows``: a RunSQL whose SQL deletes or truncates, a RunPython whose function's
  source deletes (``.delete(``, ``DELETE``, ``TRUNCATE``) - stored matches, moves and
  analyses are records, and a deploy may not drop them unseen;
- ``stamps a version``: an AddField or AlterField giving a version-like column
  (``version``, ``*_version``, ``revision``) a ``default`` or ``db_default``: the value is
  written to rows the migration did not see made (old rows, the old release's inserts)
  and claims which code made them. Such a column is added nullable (NULL: unknown) and the
  new code writes it.

A migration that does one of these on purpose is acknowledged in ``ACKNOWLEDGED``
(tests/migrations_check/test_data_changes.py), with the reason."""

from __future__ import annotations

import inspect
import re

from django.db import migrations
from django.db.models import NOT_PROVIDED

#: a column naming which code made a row: rules_version, judge_version, revision, ...
VERSION_COLUMN = re.compile(r"(^|_)(version|revision)$")
DELETING_SQL = re.compile(r"\b(DELETE\s+FROM|TRUNCATE)\b", re.IGNORECASE)
DELETING_PYTHON = re.compile(r"\.delete\(|\bDELETE\s+FROM\b|\bTRUNCATE\b", re.IGNORECASE)


def _sql_text(sql) -> str:
    if isinstance(sql, (list, tuple)):
        return " ".join(_sql_text(part) for part in sql)
    return str(sql)


def findings(migration: migrations.Migration) -> list[str]:
    """What ``migration`` does to stored rows that needs a reason, one line each."""
    found = []
    for operation in migration.operations:
        if isinstance(operation, migrations.RunSQL):
            if DELETING_SQL.search(_sql_text(operation.sql)):
                found.append("deletes rows (RunSQL)")
        elif isinstance(operation, migrations.RunPython):
            try:
                source = inspect.getsource(operation.code)
            except (OSError, TypeError):
                source = ""
            if DELETING_PYTHON.search(source):
                found.append(f"deletes rows (RunPython {operation.code.__name__})")
        elif isinstance(operation, (migrations.AddField, migrations.AlterField)):
            field = operation.field
            if VERSION_COLUMN.search(operation.name) and (
                    field.has_default() or field.db_default is not NOT_PROVIDED):
                found.append(f"stamps a version ({operation.model_name}.{operation.name} "
                             "with a default)")
    return found
