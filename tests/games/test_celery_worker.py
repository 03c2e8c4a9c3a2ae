"""A real Celery worker (a subprocess) on real Redis plays bot-only matches to the end:
bot turns chain through ``play_bot_turn`` and ``score_match`` writes the results.

The worker reads the test database and a dedicated Redis db and queue (test_games), so a
development worker never sees these tasks and this worker never sees theirs.
"""

from __future__ import annotations

import time

import pytest
from django.db import connection

from games import services
from games.models import Match, Move, Result
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker]


@pytest.fixture
def worker(tmp_path):
    purge_test_queue()
    process = start_worker(tmp_path / "worker.log", "test-games")
    try:
        yield process
    finally:
        stop_worker(process)
        connection.close()


def _wait_finished(match_ids, process, timeout=240.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        statuses = set(Match.objects.filter(pk__in=match_ids).values_list("status", flat=True))
        if statuses == {"finished"}:
            return
        if process.poll() is not None:
            raise AssertionError("the worker died:\n" + worker_log(process))
        time.sleep(0.5)
    raise AssertionError(
        f"not finished in {timeout}s: "
        f"{list(Match.objects.filter(pk__in=match_ids).values_list('status', 'ply'))}\n"
        + worker_log(process)
    )


def test_a_worker_plays_bot_matches_to_the_end_and_scores_them(worker):
    matches = [
        services.create_match(user=None, game="hansa", players=3, take_seat=False,
                              bot_seats={0: "greedy", 1: "random", 2: "greedy"}),
        services.create_match(user=None, game="han", players=2, take_seat=False,
                              bot_seats={0: "random", 1: "greedy"}),
    ]
    ids = [match.pk for match in matches]
    # Committed and enqueued: everything from here on is the worker's doing.
    assert set(Match.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"active"}
    _wait_finished(ids, worker)

    for match in Match.objects.filter(pk__in=ids):
        plies = list(Move.objects.filter(match=match).order_by("ply")
                     .values_list("ply", flat=True))
        assert plies == list(range(match.ply)) and match.ply > 10
        results = Result.objects.filter(match=match)
        assert results.count() == match.players
        assert min(result.rank for result in results) == 1
        assert match.finished_at is not None
