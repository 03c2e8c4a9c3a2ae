"""A cursor whose statements PostgreSQL prepares: parsed and planned once per session.

Kept because it pays: measured alone (bench/rest_bench.py, interleaved runs against
``DB_PREPARED_STATEMENTS=0``), it saves about 19% of a REST move (3.60 vs 4.47 ms).
Django's own ``server_side_binding`` option with psycopg preparing every statement was as
fast in a noisy run, but it also prepares the ORM's statements and cannot prepare the
multi-statement SQL of some migrations at a threshold of 0; not adopted without a quiet
measurement (docs/capacity.md, "What the hand-written parts buy").

Django's psycopg cursors bind parameters on the client and send every statement as text,
so PostgreSQL parses and plans it on every request. For the service's hottest fixed
statements that planning costs more than running them: the match read of
games/matches/rows.py took 0.16-0.2 ms to plan and 0.08-0.1 ms to execute (EXPLAIN ANALYZE,
measured for issue 14). ``prepared_cursor()`` gives a Django cursor over psycopg's
server-binding cursor; with the connection's ``prepare_threshold`` at 0 (settings,
``DB_PREPARED_STATEMENTS``) psycopg prepares each statement on its first execution in a
session and reuses it after (psycopg keeps up to 100 per session). The ORM's own cursors
bind on the client and never prepare, so nothing else changes.

The statements must be fixed text with ``%s`` placeholders (psycopg turns them into
``$1``...). The cursor is wrapped like any Django cursor, so query logging and
``CaptureQueriesContext`` see its statements.
"""

from __future__ import annotations

from django.db import connections
from django.db.backends.postgresql.base import ServerBindingCursor


class _LoggedStatement:
    """What Django's query log reads of a psycopg cursor (``cursor._query.query``)."""

    def __init__(self, text: str) -> None:
        self.query = text.encode()


class PreparingCursor(ServerBindingCursor):
    """psycopg's server-binding cursor, as Django defines it. psycopg leaves ``_query``
    unset when it runs an already prepared statement, and Django's query log reads the
    statement from there, so the statement's text (placeholders, not values) is kept."""

    def execute(self, query, params=None, **kwargs):
        result = super().execute(query, params, **kwargs)
        if self._query is None:
            self._query = _LoggedStatement(str(query))
        return result


def prepared_cursor(using: str = "default"):
    """A cursor on ``using``'s connection whose statements are server-side prepared (when
    ``DB_PREPARED_STATEMENTS`` is on). Use it as ``with prepared_cursor() as cursor:``."""
    connection = connections[using]
    connection.ensure_connection()
    with connection.wrap_database_errors:
        raw = PreparingCursor(connection.connection)
    return connection._prepare_cursor(raw)  # Django's own wrapping (debug, error mapping)
