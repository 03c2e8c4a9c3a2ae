"""A move's COMMIT in the same round trip as its writes (games/matches/writes.py
``execute(commit=True)``, issue 45), against the real PostgreSQL: committed by the time the
statement returns when the block is the outermost one, held for the outer block
otherwise, and a write that fails (the log's no-gaps trigger, an update of no row) takes
the whole transaction back with it. Transactional tests: the suite's usual transaction
around each test would be an outer block, where the COMMIT never goes early."""

from __future__ import annotations

import threading

import pytest
from django.db import DatabaseError, connection, transaction

from games.matches.models import Match, Move
from games.matches.writes import WriteBatch, commits_with_writes
from tests.games.matches.test_write_batch import match_and_people  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)


def _seen_by_another_session(match_id: int) -> tuple[int, int]:
    """(the match's ply, its logged moves) as another connection sees them now."""
    seen = {}

    def look():
        try:
            seen["row"] = (Match.objects.get(pk=match_id).ply,
                           Move.objects.filter(match_id=match_id).count())
        finally:
            connection.close()  # this thread's own connection

    reader = threading.Thread(target=look)
    reader.start()
    reader.join()
    return seen["row"]


def _a_move_batch(match: Match, ply: int) -> WriteBatch:
    batch = WriteBatch()
    batch.insert(Move(match=match, ply=ply, seat=0, move={}, events=[]))
    match.ply = ply + 1
    batch.update(match, ["ply"])
    return batch


def test_in_the_outermost_block_the_writes_are_committed_when_they_return(match_and_people):  # noqa: F811
    match, _creator, _other = match_and_people
    hooks = []
    with transaction.atomic():
        Match.objects.select_for_update().get(pk=match.pk)
        transaction.on_commit(lambda: hooks.append("after"))
        assert commits_with_writes(connection)
        _a_move_batch(match, 0).execute(commit=True)
        assert _seen_by_another_session(match.pk) == (1, 1)  # before the block ends
        assert hooks == []  # the hooks still wait for the block's end
    assert hooks == ["after"]
    # the connection is in a clean state: the next transaction works as usual
    with transaction.atomic():
        _a_move_batch(match, 1).execute(commit=True)
    assert _seen_by_another_session(match.pk) == (2, 2)


def test_in_an_inner_block_the_commit_waits_for_the_outer_one(match_and_people):  # noqa: F811
    match, _creator, _other = match_and_people
    with pytest.raises(RuntimeError), transaction.atomic():
        with transaction.atomic():
            assert not commits_with_writes(connection)
            _a_move_batch(match, 0).execute(commit=True)
        assert _seen_by_another_session(match.pk) == (0, 0)
        raise RuntimeError("the outer block fails: all of it rolls back")
    assert _seen_by_another_session(match.pk) == (0, 0)


@pytest.mark.parametrize("failure", ["a gap in the log", "an update of no row"])
def test_a_failed_write_takes_the_commit_back_with_it(match_and_people, failure):  # noqa: F811
    match, _creator, _other = match_and_people
    hooks = []
    batch = WriteBatch()
    if failure == "a gap in the log":
        batch.insert(Move(match=match, ply=5, seat=0, move={}, events=[]))
        match.ply = 6
        batch.update(match, ["ply"])
        message = "no gaps"
    else:
        batch.insert(Move(match=match, ply=0, seat=0, move={}, events=[]))
        ghost = Match.objects.get(pk=match.pk)
        ghost.pk += 10_000
        batch.update(ghost, ["ply"])
        message = "matched no row"
    with pytest.raises(DatabaseError, match=message), transaction.atomic():
        transaction.on_commit(lambda: hooks.append("after"))
        batch.execute(commit=True)
    assert hooks == []
    assert _seen_by_another_session(match.pk) == (0, 0)
    assert Match.objects.get(pk=match.pk).ply == 0  # this connection is usable again
