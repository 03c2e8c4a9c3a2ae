"""A real Celery worker (a subprocess) on real Redis plays bot-only matches to the end:
bot turns chain through ``play_bot_turn`` and ``score_match`` writes the results.

The worker reads the test database and a dedicated Redis db and queue (test_games), so a
development worker never sees these tasks and this worker never sees theirs.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager

import pytest
from django.db import connection

from games.matches import recovery
from games.matches import services as match_services
from games.matches.models import Match, Move, Result
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker, pytest.mark.slow]


@contextmanager
def _running_worker(tmp_path, pool="threads", **extra_env):
    purge_test_queue()
    process = start_worker(tmp_path / "worker.log", "test-games", pool=pool, env=extra_env)
    try:
        yield process
    finally:
        stop_worker(process)
        connection.close()


@pytest.fixture
def worker(tmp_path):
    with _running_worker(tmp_path) as process:
        yield process


@pytest.fixture
def search_worker(tmp_path):
    """A worker whose search levels play with few iterations (their own budgets otherwise),
    so whole matches of every level finish in seconds."""
    with _running_worker(tmp_path, BOT_SEARCH_ITERATION_CAP="6") as process:
        yield process


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
        match_services.create_match(user=None, game="hansa", players=3, take_seat=False,
                                    bot_seats={0: "greedy", 1: "random", 2: "greedy"}),
        match_services.create_match(user=None, game="han", players=2, take_seat=False,
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
    # WORKER_NICE (5): the worker lowered its own priority as it started, and its pool's
    # threads (which played these matches) with it: on shared cores, acks come first
    ours = os.nice(0)
    assert _nice_of(worker.pid) == ours + 5
    pool = [int(tid) for tid in os.listdir(f"/proc/{worker.pid}/task") if int(tid) != worker.pid]
    assert sum(_nice_of(tid) == ours + 5 for tid in pool) >= 2  # its concurrency


def test_a_worker_plays_bot_matches_of_every_search_level_to_the_end(search_worker):
    levels = ("easy", "medium", "hard_v1", "hard")
    matches = [
        match_services.create_match(user=None, game=game, players=2, take_seat=False,
                                    bot_seats={0: level, 1: level})
        for level in levels
        for game in ("han", "hansa")
    ]
    matches.append(match_services.create_match(
        user=None, game="hansa", players=4, take_seat=False,
        bot_seats={0: "hard", 1: "greedy", 2: "random", 3: "medium"},
    ))
    ids = [match.pk for match in matches]
    _wait_finished(ids, search_worker)
    for match in Match.objects.filter(pk__in=ids):
        assert match.ply > 10
        assert Result.objects.filter(match=match).count() == match.players


@pytest.fixture
def impatient_worker(tmp_path):
    """A prefork worker (threads and solo pools enforce no time limits) whose soft limit cuts
    bot searches short: 0.05 s, against the hard level's own cap of 1.5 s. On an idle
    machine a hard two-player Hansa search (300 iterations) takes about 0.1 s, so the limit
    fires in most searches; the rest of a turn (loading, storing, enqueueing) takes a few
    milliseconds, so it seldom fires there."""
    with _running_worker(tmp_path, pool="prefork", CELERY_WORKER_POOL="prefork",
                         BOT_TURN_SOFT_TIME_LIMIT="0.05") as process:
        yield process


def test_a_search_cut_by_the_soft_time_limit_still_plays_a_move(impatient_worker):
    match = match_services.create_match(user=None, game="hansa", players=2, take_seat=False,
                                        bot_seats={0: "hard", 1: "hard"})
    # a 0.05 s limit may also fire outside the search (enqueueing the next turn): that turn
    # is lost until the periodic sweep re-enqueues it, as celery beat does in production
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and Match.objects.get(pk=match.pk).status != "finished":
        recovery.resume_stalled_matches(idle_seconds=3.0)
        time.sleep(3)
    _wait_finished([match.pk], impatient_worker, timeout=5)
    match.refresh_from_db()
    assert Result.objects.filter(match=match).count() == 2
    # the backstop fired and those turns played the search's best move so far (greedy's
    # when the limit struck before the first iteration); a limit that fired while a move
    # was being stored (a heavily loaded machine) made the turn retry, never stall
    log = impatient_worker.log_path.read_text(errors="replace")
    assert "overran the soft time limit" in log, log[-3000:]
    assert "playing the search's best move so far" in log, log[-3000:]


def _nice_of(pid: int) -> int:
    # /proc/PID/stat: the 19th field is the nice value (after the command in parentheses)
    return int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[16])
