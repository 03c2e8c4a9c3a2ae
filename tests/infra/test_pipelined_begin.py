"""The match's lock and read go out in one round trip with the transaction's BEGIN
(infra/pipelined_begin.py, games/matches/rows.py), judged by libpq's own trace of the
protocol (one Sync from the client where there were two) and by another PostgreSQL
session (the lock is held; what the block wrote is seen only once it commits, and never
after a rollback); Django's transactions behave as before around it."""

from __future__ import annotations

import tempfile

import psycopg
import pytest
from django.db import OperationalError, connection, transaction
from psycopg import pq

from games.matches import services
from games.matches.models import Match
from games.matches.rows import load_match
from tests.db_sessions import another_session

pytestmark = pytest.mark.django_db(transaction=True)


def _locked_elsewhere(match_id: int) -> bool:
    with another_session(autocommit=True) as other:
        try:
            other.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE NOWAIT",
                          [match_id])
        except psycopg.errors.LockNotAvailable:
            return True
    return False


def _ply_elsewhere(match_id: int) -> int:
    with another_session(autocommit=True) as other:
        return other.execute("SELECT ply FROM games_match WHERE id = %s",
                             [match_id]).fetchone()[0]


class _Trace:
    """What the client sent PostgreSQL while the block ran, from libpq's trace."""

    def __enter__(self):
        connection.ensure_connection()
        self.file = tempfile.TemporaryFile("w+")
        raw = connection.connection.pgconn
        raw.trace(self.file.fileno())
        raw.set_trace_flags(pq.Trace.SUPPRESS_TIMESTAMPS | pq.Trace.REGRESS_MODE)
        return self

    def __exit__(self, *exc) -> None:
        connection.connection.pgconn.untrace()
        self.file.seek(0)
        self.sent = [line.split("\t") for line in self.file.read().splitlines()
                     if line.startswith("F\t")]

    def waits(self) -> int:
        """Round trips: each Sync of a pipeline, each simple Query."""
        return sum(1 for message in self.sent if message[2] in ("Sync", "Query"))

    def statements(self) -> list[str]:
        """Each statement parsed or sent, as the trace prints it (its name, then its text
        in quotes)."""
        return [message[3] for message in self.sent if message[2] in ("Parse", "Query")]


@pytest.fixture
def match(make_user) -> Match:
    return services.create_match(user=make_user(), game="han", players=2)


def test_begin_lock_and_read_take_one_round_trip_and_the_lock_is_held(match):
    with transaction.atomic():
        with _Trace() as trace:
            assert load_match(match.pk, lock=True).pk == match.pk
        assert _locked_elsewhere(match.pk)
    assert trace.waits() == 1
    statements = trace.statements()
    assert statements[0].endswith('"BEGIN" 0') and "FOR UPDATE" in statements[1], statements
    assert not _locked_elsewhere(match.pk)  # the commit released it


def test_what_the_block_writes_commits_with_it_or_not_at_all(match):
    with transaction.atomic():
        load_match(match.pk, lock=True)
        Match.objects.filter(pk=match.pk).update(ply=41)
        assert _ply_elsewhere(match.pk) != 41  # not yet committed
    assert _ply_elsewhere(match.pk) == 41
    with pytest.raises(RuntimeError), transaction.atomic():
        load_match(match.pk, lock=True)
        Match.objects.filter(pk=match.pk).update(ply=99)
        raise RuntimeError
    assert _ply_elsewhere(match.pk) == 41
    # after the block, Django's autocommit again: a lone statement commits by itself
    assert connection.connection.autocommit
    Match.objects.filter(pk=match.pk).update(ply=42)
    assert _ply_elsewhere(match.pk) == 42


def test_a_block_begun_already_keeps_psycopgs_begin(match):
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).exists()  # psycopg began the transaction
        with _Trace() as trace:
            load_match(match.pk, lock=True)
    assert trace.waits() == 1
    assert not [text for text in trace.statements() if '"BEGIN"' in text]


def test_a_lock_timeout_in_a_begun_block_leaves_the_connection_as_django_expects(match):
    with another_session() as holder:
        holder.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE", [match.pk])
        with pytest.raises(OperationalError), transaction.atomic():
            with connection.cursor() as cursor:  # psycopg begins the transaction here
                cursor.execute("SET LOCAL lock_timeout = '50ms'")
            load_match(match.pk, lock=True)
        holder.rollback()
    with transaction.atomic():
        assert load_match(match.pk, lock=True).pk == match.pk
        Match.objects.filter(pk=match.pk).update(ply=43)
    assert _ply_elsewhere(match.pk) == 43
    assert connection.connection.autocommit


def test_a_lock_timeout_as_the_first_statement_rolls_back_cleanly(match):
    with another_session() as holder:
        holder.execute("SELECT 1 FROM games_match WHERE id = %s FOR UPDATE", [match.pk])
        connection.ensure_connection()
        connection.connection.execute("SET lock_timeout = '50ms'")
        try:
            with pytest.raises(OperationalError), transaction.atomic():
                load_match(match.pk, lock=True)  # BEGIN and the lock in one round trip
        finally:
            connection.connection.execute("RESET lock_timeout")
        holder.rollback()
    assert connection.connection.info.transaction_status == pq.TransactionStatus.IDLE
    assert connection.connection.autocommit
    with transaction.atomic():
        load_match(match.pk, lock=True)
        Match.objects.filter(pk=match.pk).update(ply=44)
    assert _ply_elsewhere(match.pk) == 44
