"""The analysis task (games/analysis/running.py) hands its judge only the mover's own view
of each decision (issue 44): run on a finished match with the real engine and judge,
watched (tests/rules/judge_watch.py); and a judge that looks at the match's state makes
the same watch fail."""

from __future__ import annotations

import pytest

from games.analysis import running
from games.analysis.models import Analysis, AnalysisStatus
from rules import get_engine
from rules.analysis import JUDGE_VERSION, analyse_decision
from tests.games.analysis.support import finished_match
from tests.games.support import isolate_test_celery
from tests.rules.judge_watch import JudgeWatch, WatchedEngine, expected_views, peeking_judge

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _test_broker():
    isolate_test_celery()


def _run_watched(monkeypatch, player, game: str, judge):
    match = finished_match(player, game)
    log = list(match.moves.order_by("ply").values_list("seat", "move"))
    engine = WatchedEngine(get_engine(game))
    watch = JudgeWatch(engine, judge,
                       expected_views(game, match.players, match.options, match.seed, log))
    # the task's own engine and judge, instrumented (the real ones do the work)
    monkeypatch.setattr(running, "engine_of", lambda match: engine)
    monkeypatch.setattr(running, "analyse_decision", watch)
    analysis = Analysis.objects.create(match=match, requested_by=player,
                                       rules_version=engine.rules_version,
                                       judge_version=JUDGE_VERSION, iterations=3, samples=2,
                                       decisions_total=len(log))
    assert running.run_analysis(analysis.pk) == AnalysisStatus.DONE
    assert watch.calls == len(log)
    return engine


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_the_task_hands_the_judge_only_the_mover_s_view(monkeypatch, make_user, game):
    engine = _run_watched(monkeypatch, make_user(), game, analyse_decision)
    assert engine.violations == []


def test_a_peeking_judge_in_the_task_is_caught(monkeypatch, make_user):
    engine = _run_watched(monkeypatch, make_user(), "hansa", peeking_judge(analyse_decision))
    assert any("with the match's state" in v for v in engine.violations)
