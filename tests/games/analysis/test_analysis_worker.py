"""Analyses never hold up play: with real workers (subprocesses on real Redis), a long
analysis runs on the analysis worker while bot-only matches are played to the end and
scored by the game worker, which does not consume the analysis queue at all."""

from __future__ import annotations

import time

import pytest
from django.conf import settings
from django.db import connection

from games.analysis import services
from games.analysis.models import Analysis, AnalysisStatus
from games.matches import services as match_services
from games.matches.models import Match, Result
from tests.games.analysis.support import finished_match
from tests.games.support import TEST_ANALYSIS_QUEUE, isolate_test_celery
from tests.workers import purge_test_queue, start_worker, stop_worker, worker_log

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker,
              pytest.mark.slow]

#: a budget that keeps the analysis worker busy for minutes on any machine
LONG_BUDGET = {"ANALYSIS_ITERATIONS": "3000", "ANALYSIS_SAMPLES": "200"}


def _wait(condition, what: str, processes, timeout: float = 240.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        for process in processes:
            if process.poll() is not None:
                raise AssertionError("a worker died:\n" + worker_log(process))
        time.sleep(0.3)
    raise AssertionError(f"{what} not within {timeout}s\n"
                         + "\n".join(worker_log(process) for process in processes))


def test_bot_turns_and_scoring_never_wait_behind_an_analysis(tmp_path, make_user):
    # the default worker's queues (no -Q) are the game queues only
    assert settings.CELERY_ANALYSIS_QUEUE not in [q.name for q in settings.CELERY_TASK_QUEUES]
    isolate_test_celery()
    purge_test_queue()
    player = make_user()
    analysed = finished_match(player, "hansa")
    analyst = start_worker(tmp_path / "analysis.log", "test-analysis", concurrency=1,
                           queues=(TEST_ANALYSIS_QUEUE,), env=LONG_BUDGET)
    games = start_worker(tmp_path / "games.log", "test-games",
                         env={"BOT_SEARCH_ITERATION_CAP": "6"})
    try:
        with pytest.MonkeyPatch.context() as patch:  # the request under the same budget
            patch.setattr(settings, "ANALYSIS_ITERATIONS", int(LONG_BUDGET["ANALYSIS_ITERATIONS"]))
            patch.setattr(settings, "ANALYSIS_SAMPLES", int(LONG_BUDGET["ANALYSIS_SAMPLES"]))
            analysis, _created = services.request_analysis(analysed.pk, player)
        _wait(lambda: Analysis.objects.get(pk=analysis.pk).status == AnalysisStatus.RUNNING,
              "the analysis worker taking the analysis", [analyst, games])

        matches = [
            match_services.create_match(user=None, game="hansa", players=3, take_seat=False,
                                        bot_seats={0: "greedy", 1: "random", 2: "easy"}),
            match_services.create_match(user=None, game="han", players=2, take_seat=False,
                                        bot_seats={0: "random", 1: "medium"}),
        ]
        ids = [match.pk for match in matches]
        _wait(lambda: set(Match.objects.filter(pk__in=ids).values_list("status", flat=True))
              == {"finished"}, "the bot matches finishing", [analyst, games])
        assert Result.objects.filter(match_id__in=ids).count() == 5

        # all that while, the analysis was still at work on its own worker
        during = Analysis.objects.get(pk=analysis.pk)
        assert during.status == AnalysisStatus.RUNNING
        assert during.decisions_done < during.decisions_total
        assert "analyse_match" not in worker_log(games, tail=100_000)
    finally:
        stop_worker(games)
        stop_worker(analyst)
        connection.close()
