"""Several ORM writes sent to PostgreSQL as one statement.

Kept because it pays: measured alone (bench/rest_bench.py, 7 interleaved runs of 300 moves
against the same service writing through plain ORM calls), it saves 17.5% of a REST move
(3.59 vs 4.35 ms; 4 statements instead of 6), and 10% of the server's CPU per move cycle
side by side with boardgame.io at one client (docs/capacity.md, "What the hand-written
parts buy").

A move writes three rows: its entry in the log, the match's new snapshot, and the "your
turn" feed event of whoever acts next. Saved one by one they cost three round trips to
PostgreSQL and three passes through the ORM's save machinery, which together were the
largest part of a move's time after the lock (issue 14; docs/capacity.md). Here each
write is compiled by the ORM's own SQL compilers, exactly as ``save()`` and
``bulk_create()`` compile it (the fields' ``pre_save`` and ``get_db_prep_save``, so
``auto_now`` stamps and JSON encoding are the ORM's), and the statements are joined as
data-modifying common table expressions of one statement:

    WITH write_0 AS (INSERT ... RETURNING "id"), write_1 AS (UPDATE ... RETURNING "id"),
         write_2 AS (INSERT ... ON CONFLICT DO NOTHING)
    SELECT (SELECT "id" FROM write_0), (SELECT "id" FROM write_1)

PostgreSQL runs every part exactly once and to completion, all on the statement's
snapshot, so the parts must not depend on one another's rows (they don't: a move's
writes touch three different tables). Triggers and constraints apply as to separate
statements. What the ORM's ``save()`` would add is done here too: the returned primary
key is set on the instance and it is marked as saved; an update that matched no row
raises, as ``save(update_fields=...)`` does. Model signals are not sent: the project
connects no ``pre_save``/``post_save`` receivers to the models written this way
(tests/games/matches/test_write_batch.py checks it), and the save() overrides guard only
updates of existing rows (the move log is append-only), which a batch never issues.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from functools import cache

from django.db import DatabaseError, connections
from django.db.models import Model
from django.db.models.constants import OnConflict
from django.db.models.sql import InsertQuery

from infra.prepared import prepared_cursor


class WriteBatch:
    """Collect inserts and updates of model instances; ``execute()`` sends them as one
    statement. Use inside the transaction that should hold them."""

    def __init__(self, using: str = "default") -> None:
        self.using = using
        # each part: its statement, its parameters, the columns it RETURNs (read back by
        # the final SELECT) and what to do with the values read
        self._parts: list[tuple[str, list, list[str], Callable[[list], None]]] = []

    def insert(self, obj: Model) -> None:
        """INSERT ``obj`` as ``obj.save()`` would for a new row; its primary key (and any
        other field the database fills) is set on it by ``execute()``."""
        meta = obj._meta
        fields = [field for field in meta.local_concrete_fields
                  if not (field is meta.auto_field and obj.pk is None)]
        returning = list(meta.db_returning_fields)
        sql, params = self._compile_insert(obj.__class__, [obj], fields, returning)

        def saved(values: list) -> None:
            for field, value in zip(returning, values, strict=True):
                setattr(obj, field.attname, value)
            obj._state.adding = False
            obj._state.db = self.using

        self._parts.append((sql, params, [self._quote(field.column) for field in returning],
                            saved))

    def insert_ignoring_conflicts(self, objs: Sequence[Model]) -> None:
        """INSERT ``objs`` as ``bulk_create(objs, ignore_conflicts=True)`` would: a row
        that breaks a unique constraint is skipped. Primary keys are not set (as with
        bulk_create on conflict-ignoring inserts)."""
        if not objs:
            return
        meta = objs[0]._meta
        fields = [field for field in meta.local_concrete_fields
                  if field is not meta.auto_field]
        sql, params = self._compile_insert(objs[0].__class__, list(objs), fields, [],
                                           on_conflict=OnConflict.IGNORE)
        self._parts.append((sql, params, [], lambda values: None))

    def update(self, obj: Model, update_fields: Iterable[str]) -> None:
        """UPDATE ``obj``'s row with ``update_fields``, as ``obj.save(update_fields=...)``
        would (``auto_now`` fields among them are stamped now); ``execute()`` raises if no
        row matched, as save() does."""
        meta = obj._meta
        fields = _update_fields(obj.__class__, frozenset(update_fields))
        connection = connections[self.using]
        sql = _update_statement(self.using, obj.__class__, fields)
        params = [field.get_db_prep_save(field.pre_save(obj, False), connection=connection)
                  for field in fields]
        params.append(meta.pk.get_db_prep_value(obj.pk, connection, prepared=False))
        pk_column = self._quote(meta.pk.column)

        def matched(values: list) -> None:
            if values[0] is None:
                raise DatabaseError(f"{obj.__class__.__name__} {obj.pk}: the update "
                                    "matched no row.")

        self._parts.append((f"{sql} RETURNING {pk_column}", params, [pk_column], matched))

    def execute(self) -> None:
        """Send every collected write as one statement, then set what it returned."""
        if not self._parts:
            return
        ctes, params, reads = [], [], []
        for index, (sql, part_params, columns, _) in enumerate(self._parts):
            name = f"write_{index}"
            ctes.append(f"{name} AS ({sql})")
            params.extend(part_params)
            reads += [f"(SELECT {column} FROM {name})" for column in columns]
        # a statement of inserts that return nothing still needs something to select
        statement = f"WITH {', '.join(ctes)} SELECT {', '.join(reads) or '1'}"
        with prepared_cursor(self.using) as cursor:  # infra/prepared.py
            cursor.execute(statement, params)
            row = list(cursor.fetchone())
        for _sql, _params, columns, apply in self._parts:
            values, row = row[:len(columns)], row[len(columns):]
            apply(values)
        self._parts.clear()

    def _compile_insert(self, model, objs, fields, returning, on_conflict=None):
        """The INSERT ``bulk_create``/``save`` would send. One row (a move's log entry,
        its feed event): the text from the ORM's own compiler once per shape (the model,
        columns and what it returns), and the values prepared by the fields as that
        compiler prepares them (``pre_save`` for an insert, then ``get_db_prep_save``).
        Several rows are compiled whole: PostgreSQL's form for them (``UNNEST`` of one
        array per column) is the compiler's own business."""
        if len(objs) == 1:
            connection = connections[self.using]
            sql = _insert_sql(self.using, model, tuple(fields), tuple(returning), on_conflict)
            return sql, [field.get_db_prep_save(field.pre_save(objs[0], True),
                                                connection=connection) for field in fields]
        query = InsertQuery(model, on_conflict=on_conflict)
        query.insert_values(fields, objs)
        compiler = query.get_compiler(self.using)
        compiler.returning_fields = returning
        (statement,) = compiler.as_sql()
        return statement[0], list(statement[1])

    def _quote(self, name: str) -> str:
        return connections[self.using].ops.quote_name(name)


# -- statements, built once per shape -------------------------------------------------------
# Compiling a write through the ORM (a queryset's filter, the compiler) cost more CPU than
# PostgreSQL spent on the write: a move's update was 6% of a web process's CPU under the
# peer benchmark (py-spy, docs/capacity.md). The text of a statement depends only on its
# shape, so it is built once; the values are prepared on every call by the fields
# themselves. tests/games/matches/test_write_batch.py holds both to what the ORM compiles.
@cache
def _update_fields(model, names: frozenset) -> tuple:
    return tuple(field for field in model._meta.local_concrete_fields
                 if not field.primary_key and (field.name in names or field.attname in names))


@cache
def _update_statement(using: str, model, fields: tuple) -> str:
    """``UPDATE t SET a = %s, ... WHERE t.pk = %s`` as the ORM's update compiler writes
    it for ``filter(pk=...).update(...)`` of plain values."""
    connection = connections[using]
    quote = connection.ops.quote_name
    meta = model._meta
    # a field with its own placeholder (an array's cast) has one whatever the value
    assignments = ", ".join(f"{quote(field.column)} = {_placeholder(field, connection)}"
                            for field in fields)
    return (f"UPDATE {quote(meta.db_table)} SET {assignments} "
            f"WHERE {quote(meta.db_table)}.{quote(meta.pk.column)} = %s")


def _placeholder(field, connection) -> str:
    """``%s``, or the field's own (an array's cast), which does not depend on the value."""
    if hasattr(field, "get_placeholder"):
        return field.get_placeholder(None, None, connection)
    return "%s"


@cache
def _insert_sql(using: str, model, fields: tuple, returning: tuple, on_conflict) -> str:
    """The ORM's INSERT of one row of ``fields`` (compiled once, from an instance whose
    values do not matter: only the text is kept)."""
    if any(field.has_db_default() for field in fields):  # "DEFAULT" would take a value's place
        raise TypeError(f"{model.__name__} has database defaults: write it through the ORM")
    query = InsertQuery(model, on_conflict=on_conflict)
    query.insert_values(list(fields), [model()], raw=True)
    compiler = query.get_compiler(using)
    compiler.returning_fields = list(returning)
    (statement,) = compiler.as_sql()
    return statement[0]
