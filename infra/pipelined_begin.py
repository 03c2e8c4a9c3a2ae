"""A transaction's BEGIN sent in the same round trip as its first statements.

Inside ``transaction.atomic`` Django turns psycopg's autocommit off, and psycopg then
starts the transaction itself before the first statement: in pipeline mode it sends
``BEGIN`` and waits for PostgreSQL's answer before anything else goes out (it syncs after
it), so a pipeline opening a transaction cost two round trips, not one. On the match's
lock and read, the first statements of every move, sending BEGIN with them took that
phase of a paced move from 1.46-1.56 to 1.28 ms at p50 (bench/move_phases_report.py;
docs/capacity.md "A paced move, phase by phase").

``pipeline(raw)`` opens psycopg's pipeline on Django's connection ``raw`` and, when the
transaction has not begun yet, queues ``BEGIN`` as the pipeline's first statement itself:
psycopg is put in autocommit (allowed while no transaction is open) so it sends no BEGIN
of its own, and the explicit one opens the transaction Django will commit or roll back at
the end of its atomic block, as it would have (psycopg's ``commit`` and ``rollback`` act on
the transaction status, whatever the autocommit flag says; Django sets autocommit back on
when the outermost block ends). Only psycopg's public API is used.

Left to psycopg (nothing changes): outside an atomic block (autocommit on), inside a
transaction already begun, and on a connection whose transactions are not plain (an
isolation level, read-only or deferrable set: psycopg's BEGIN would carry them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from psycopg import Connection
from psycopg.pq import TransactionStatus


def _begin_is_ours(raw: Connection) -> bool:
    """Whether this pipeline should carry the BEGIN; if so psycopg is told not to send it."""
    if raw.autocommit or raw.info.transaction_status != TransactionStatus.IDLE:
        return False
    if raw.isolation_level is not None or raw.read_only is not None \
            or raw.deferrable is not None:
        return False
    raw.autocommit = True
    return True


@contextmanager
def pipeline(raw: Connection) -> Iterator[None]:
    """psycopg's ``raw.pipeline()``, its first statement the transaction's BEGIN when the
    transaction is still to begin (module docstring)."""
    ours = _begin_is_ours(raw)
    try:
        with raw.pipeline():
            if ours:
                raw.execute(b"BEGIN", prepare=False)
            yield
    except BaseException:
        if ours and raw.info.transaction_status == TransactionStatus.IDLE:
            # no transaction began (the BEGIN never ran): statements the atomic block
            # still sends must open one as before, not each commit on its own
            raw.autocommit = False
        raise
