"""A worker killed with kill -9 in the middle of a match (issue 9).

Before: the task it held sat in Redis's "unacked" set for kombu's default visibility
timeout (an hour), and only beat's sweep (60 s) resumed the match. Now a worker that
connects sweeps the waiting matches at once (games/matches/worker_steps.py), and a message held
by a dead worker is put back after the visibility timeout (seconds, settings)."""

from __future__ import annotations

import time

import pytest

from config.celery import app as celery_app
from games.matches import services as match_services
from tests.fault.conftest import assert_log_intact, progress, report, wait_for
from tests.fault.tasks import HOLD
from tests.workers import kill_worker_group, purge_test_queue, start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_resumes_within_15_s_of_a_worker_coming_back(tmp_path):
    purge_test_queue()
    first = start_worker(tmp_path / "first.log", "fault-kill-1", concurrency=2)
    second = None
    try:
        match = match_services.create_match(
            user=None, game="han", players=4, take_seat=False,
            bot_seats={0: "greedy", 1: "random", 2: "greedy", 3: "random"})
        wait_for(lambda: progress(match.pk)[1] >= 3, 60, "third move", first)
        kill_worker_group(first)
        time.sleep(3)
        stalled = progress(match.pk)
        time.sleep(2)
        assert progress(match.pk) == stalled, "moves were played with no worker alive"

        second = start_worker(tmp_path / "second.log", "fault-kill-2", concurrency=2)
        resumed = wait_for(lambda: progress(match.pk) != stalled, 15,
                           "move within 15 s of a worker coming back", second)
        finished = wait_for(lambda: progress(match.pk)[0] == "finished", 120,
                            "end of the match", second)
        report("worker back after kill -9 -> first move", resumed)
        report("worker back after kill -9 -> match finished", resumed + finished)
        assert_log_intact(match.pk)
    finally:
        for worker in (first, second):
            if worker is not None:
                stop_worker(worker)


def test_a_killed_workers_task_is_redelivered_after_the_visibility_timeout(tmp_path):
    """Any task, not only the game's (which the post-connect sweep also recovers). The
    workers run with a 6 s visibility timeout to keep the test short; production uses
    CELERY_VISIBILITY_TIMEOUT (30 s), the same code path."""
    purge_test_queue()
    visibility = 6
    env = {"CELERY_VISIBILITY_TIMEOUT": str(visibility)}
    first = start_worker(tmp_path / "first.log", "fault-vt-1", concurrency=1,
                         include=("tests.fault.tasks",), env=env)
    second = None
    try:
        marker = tmp_path / "held"
        celery_app.send_task(HOLD, args=[str(marker), 3.0])
        wait_for(marker.exists, 60, "start of the held task", first)
        delivered_at = time.monotonic()
        kill_worker_group(first)
        second = start_worker(tmp_path / "second.log", "fault-vt-2", concurrency=1,
                              include=("tests.fault.tasks",), env=env)

        def started_twice() -> bool:
            return len(marker.read_text().splitlines()) >= 2

        # The timeout, plus one 2 s restore scan, plus the second worker's start.
        wait_for(started_twice, visibility + 15, "redelivery of the killed worker's task",
                 second)
        report("kill -9 -> held task redelivered (visibility timeout 6 s)",
               time.monotonic() - delivered_at)
    finally:
        for worker in (first, second):
            if worker is not None:
                stop_worker(worker)
