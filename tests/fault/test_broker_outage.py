"""Redis stops and comes back while a real prefork worker plays a bot-only match (issue 9).

Before: celery 5.7.0's worker died at the loss ("Restoring 1 unacknowledged message(s)",
then "Unrecoverable error: AttributeError(...'hostname')") whenever a task was running
while the main process waited on BRPOP; and after a Redis restart nothing re-enqueued the
bot turn whose publish had failed, so the match waited for beat's sweep (none here).
"""

from __future__ import annotations

import time

import pytest

from config.celery import app as celery_app
from games.matches import services as match_services
from tests.fault.conftest import assert_log_intact, progress, report, wait_for
from tests.fault.tasks import HOLD
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = pytest.mark.django_db(transaction=True)

OUTAGE_SECONDS = 5


def test_the_worker_outlives_a_redis_outage_and_the_match_finishes(services, tmp_path):
    purge_test_queue()
    # Three processes: one runs the held task, one the bot turns, and the main process
    # still has credit to wait on BRPOP - the state in which the outage used to be fatal.
    worker = start_worker(tmp_path / "worker.log", "fault-redis", concurrency=3,
                          include=("tests.fault.tasks",), level="info")
    try:
        matches = []
        # Twice: whether the loss takes the fatal path depends on which of the worker's
        # Redis sockets reports it first (about one outage in two on celery 5.7.0).
        for outage in range(2):
            marker = tmp_path / f"held-{outage}"
            celery_app.send_task(HOLD, args=[str(marker), 2 * OUTAGE_SECONDS])
            wait_for(marker.exists, 60, "start of the held task", worker)
            match = match_services.create_match(
                user=None, game="han", players=4, take_seat=False,
                bot_seats={0: "random", 1: "greedy", 2: "random", 3: "greedy"})
            matches.append(match.pk)
            match_id = match.pk
            wait_for(lambda m=match_id: progress(m)[1] >= 3, 60, "third move", worker)

            services.stop_redis()
            for _ in range(OUTAGE_SECONDS):
                time.sleep(1)
                assert worker.poll() is None, "the worker died with Redis:\n" + worker_log(
                    worker)
            ply_at_restart = progress(match_id)[1]
            services.start_redis()
            resumed = wait_for(
                lambda m=match_id, p=ply_at_restart: progress(m) != ("active", p), 60,
                "move after Redis came back", worker)
            finished = wait_for(lambda m=match_id: progress(m)[0] == "finished", 120,
                                "end of the match", worker)
            report("Redis restart -> first move", resumed)
            report("Redis restart -> match finished", resumed + finished)

        assert worker.poll() is None
        assert "Unrecoverable error" not in worker_log(worker, tail=200_000)
        for match_id in matches:
            assert_log_intact(match_id)
    finally:
        stop_worker(worker)
