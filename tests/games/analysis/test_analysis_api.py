"""GET/POST /api/v1/matches/{id}/analysis/: who may request, 202 then 200, joining, the
daily limit, the CPU cap, resuming, determinism, and every refusal writing nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from games.analysis import running
from games.analysis.models import AnalysedDecision, Analysis, AnalysisStatus
from games.matches.models import Match
from rules import get_engine
from rules.analysis import (
    JUDGE_VERSION,
    AnalysisBudget,
    analyse_decision,
    decision_key,
    iter_decisions,
)
from tests.games.analysis.support import TINY, analysis_url, finished_match
from tests.games.support import assert_api_error, eager_celery, isolate_test_celery
from tests.infra.test_database_roles import as_runtime_role  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _test_broker():
    isolate_test_celery()  # tasks sent without a worker wait in the test queue


def _counts():
    return Analysis.objects.count(), AnalysedDecision.objects.count()


def test_a_player_requests_it_sees_progress_then_the_result(make_user, make_auth_client):
    player = make_user()
    client = make_auth_client(player)
    match = finished_match(player, "hansa")
    assert_api_error(client.get(analysis_url(match.pk)), 404, "no_analysis")

    queued = client.post(analysis_url(match.pk))  # no worker here: it waits in the queue
    assert queued.status_code == 202
    body = queued.json()
    assert body["status"] == "queued" and "decisions" not in body
    assert body["progress"] == {"done": 0, "total": match.ply, "percent": 0.0}
    assert body["budget"] == {"iterations": TINY["ANALYSIS_ITERATIONS"],
                              "samples": TINY["ANALYSIS_SAMPLES"]}
    assert client.get(analysis_url(match.pk)).status_code == 202

    analysis = Analysis.objects.get(match=match)
    assert running.run_analysis(analysis.pk) == AnalysisStatus.DONE
    done = client.get(analysis_url(match.pk))
    assert done.status_code == 200
    result = done.json()
    assert result["status"] == "done" and result["progress"]["done"] == match.ply
    assert [row["ply"] for row in result["decisions"]] == list(range(match.ply))
    for row in result["decisions"]:
        # the best move is the best *result* (rules/analysis/decision.py): it may score
        # fewer points than the move played, which then loses no points
        assert row["result_loss"] >= 0
        assert row["result_best"] >= row["result_played"] - 1e-6
        assert row["loss"] == pytest.approx(max(0.0, row["value_best"] - row["value_played"]),
                                            abs=2e-3)
        assert row["label"] in (None, "inaccuracy", "mistake", "blunder")
    assert [seat["seat"] for seat in result["seats"]] == [0, 1]
    for seat in result["seats"]:
        assert 0 <= seat["accuracy"] <= 100
        assert set(seat["labels"]) == {"inaccuracy", "mistake", "blunder"}
    assert result["thresholds"]["blunder"] > result["thresholds"]["mistake"]
    # a request once it is done joins it: served at once, nothing new computed
    again = client.post(analysis_url(match.pk))
    assert again.status_code == 200 and again.json() == result
    assert running.run_analysis(analysis.pk) == "skipped"
    assert Analysis.objects.count() == 1


def test_the_analysis_is_the_rules_library_s_judgement_of_each_view(make_user):
    """Stored figures equal rules.analysis run on each decision's view, seeded from the
    revealed seed and the ply: the same match, rules version and budget give the same
    analysis anywhere."""
    player = make_user()
    match = finished_match(player, "hansa")
    with eager_celery():
        from games.analysis import services

        analysis, created = services.request_analysis(match.pk, player)
    assert created
    analysis.refresh_from_db()
    assert analysis.status == AnalysisStatus.DONE and analysis.requested_by == player
    engine = get_engine("hansa")
    budget = AnalysisBudget(iterations=TINY["ANALYSIS_ITERATIONS"],
                            samples=TINY["ANALYSIS_SAMPLES"])
    log = list(match.moves.order_by("ply").values_list("seat", "move"))
    stored = {row.ply: row for row in analysis.decisions.all()}
    for decision in list(iter_decisions(engine, 2, match.options, match.seed, log))[::9]:
        judged = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                                  decision.played,
                                  decision_key(match.seed, decision.ply, decision.seat), budget)
        row = stored[decision.ply]
        assert (row.seat, row.best, row.value_best) == (decision.seat, judged.best,
                                                        judged.value_best)
        assert row.loss == pytest.approx(max(0.0, judged.loss))


def test_who_may_request_it_and_refusals_write_nothing(make_user, make_auth_client,
                                                       api_client):
    player, stranger = make_user(), make_user()
    match = finished_match(player, "hansa")
    before = _counts()
    assert_api_error(api_client.post(analysis_url(match.pk)), 401, "not_authenticated")
    assert_api_error(make_auth_client(stranger).post(analysis_url(match.pk)), 403, "forbidden")
    client = make_auth_client(player)
    assert_api_error(client.post(analysis_url(match.pk), {"iterations": 9}, format="json"),
                     400, "invalid_request")
    assert_api_error(client.post(analysis_url(999999)), 404, "match_not_found")
    assert_api_error(client.post(analysis_url("x1")), 404, "match_not_found")
    Match.objects.filter(pk=match.pk).update(rules_version="0")
    assert_api_error(client.post(analysis_url(match.pk)), 409, "rules_version_changed")
    assert _counts() == before

    admin = make_user()
    admin.user_permissions.add(Permission.objects.get(codename="manage_match"))
    Match.objects.filter(pk=match.pk).update(rules_version=get_engine("hansa").rules_version)
    assert make_auth_client(admin).post(analysis_url(match.pk)).status_code == 202


def test_an_unfinished_match_cannot_be_analysed(make_user, make_auth_client):
    from games.matches import services as match_services

    player = make_user()
    match = match_services.create_match(user=player, game="han", players=2,
                                        bot_seats={1: "random"}, creator_seat=0)
    assert_api_error(make_auth_client(player).post(analysis_url(match.pk)), 409,
                     "not_finished")
    assert _counts() == (0, 0)


def test_requests_join_and_the_daily_limit_counts_only_new_ones(make_user, make_auth_client,
                                                                 settings):
    settings.ANALYSIS_DAILY_LIMIT = 1
    player, other = make_user(), make_user()
    first, second = finished_match(player, "hansa"), finished_match(player, "hansa")
    client = make_auth_client(player)
    assert client.post(analysis_url(first.pk)).status_code == 202
    assert client.post(analysis_url(first.pk)).status_code == 202  # joins: not counted
    assert Analysis.objects.count() == 1
    error = assert_api_error(client.post(analysis_url(second.pk)), 429,
                             "analysis_limit_reached")
    assert error["details"] == {"limit": 1, "used": 1}
    assert Analysis.objects.count() == 1
    # a day later the limit allows another
    Analysis.objects.update(created_at=timezone.now() - timedelta(days=1, seconds=1))
    assert client.post(analysis_url(second.pk)).status_code == 202
    # another player's own limit is untouched
    third = finished_match(other, "hansa")
    assert make_auth_client(other).post(analysis_url(third.pk)).status_code == 202


def test_the_cpu_cap_stops_it_and_a_higher_cap_resumes_it(make_user, make_auth_client,
                                                          settings):
    player = make_user()
    match = finished_match(player, "hansa")
    client = make_auth_client(player)
    client.post(analysis_url(match.pk))
    analysis = Analysis.objects.get(match=match)
    settings.ANALYSIS_CPU_SECONDS = 1e-9  # one decision, then the cap
    assert running.run_analysis(analysis.pk) == AnalysisStatus.STOPPED
    stopped = client.get(analysis_url(match.pk))
    assert stopped.status_code == 200
    assert stopped.json()["progress"]["done"] == 1 and len(stopped.json()["decisions"]) == 1

    # a stopped analysis is final; were it lost mid-way instead, the next run resumes
    Analysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.RUNNING,
                                                   heartbeat_at=timezone.now() - timedelta(hours=1))
    settings.ANALYSIS_CPU_SECONDS = 600
    assert running.run_analysis(analysis.pk) == AnalysisStatus.DONE
    resumed = list(AnalysedDecision.objects.filter(analysis=analysis).order_by("ply")
                   .values_list("ply", "best", "value_best"))
    assert [ply for ply, _best, _value in resumed] == list(range(match.ply))

    # the same from scratch: identical (resuming changes nothing)
    Analysis.objects.all().delete()
    client.post(analysis_url(match.pk))
    running.run_analysis(Analysis.objects.get(match=match).pk)
    assert list(AnalysedDecision.objects.order_by("ply")
                .values_list("ply", "best", "value_best")) == resumed


@pytest.mark.usefixtures("as_runtime_role")  # as the service runs it (issue 40: a 500 before)
def test_an_analysis_of_another_judge_is_not_served_and_is_judged_again(
        make_user, make_auth_client, settings):
    """The judge's version (rules.analysis.JUDGE_VERSION) is stored with an analysis: one
    made by another judge (a release changed the judge or its search) is not served, a
    message sent for it before the release computes nothing, and the next request judges
    it again in place under today's judge, outside the daily limit."""
    settings.ANALYSIS_DAILY_LIMIT = 1
    player = make_user()
    match = finished_match(player, "hansa")
    client = make_auth_client(player)
    client.post(analysis_url(match.pk))
    analysis = Analysis.objects.get(match=match)
    assert running.run_analysis(analysis.pk) == AnalysisStatus.DONE
    judged = client.get(analysis_url(match.pk)).json()
    assert judged["judge_version"] == JUDGE_VERSION

    Analysis.objects.filter(pk=analysis.pk).update(judge_version=JUDGE_VERSION - 1,
                                                   status=AnalysisStatus.QUEUED)
    assert running.run_analysis(analysis.pk) == "skipped"
    assert_api_error(client.get(analysis_url(match.pk)), 404, "no_analysis")

    again = client.post(analysis_url(match.pk))
    assert again.status_code == 202
    assert again.json()["progress"] == {"done": 0, "total": match.ply, "percent": 0.0}
    assert AnalysedDecision.objects.filter(analysis=analysis).count() == 0
    assert Analysis.objects.get().judge_version == JUDGE_VERSION  # the same row
    assert running.run_analysis(analysis.pk) == AnalysisStatus.DONE
    assert client.get(analysis_url(match.pk)).json()["decisions"] == judged["decisions"]


def test_a_lost_analysis_is_sent_again_by_the_next_request(make_user, make_auth_client,
                                                          settings):
    player = make_user()
    match = finished_match(player, "hansa")
    client = make_auth_client(player)
    client.post(analysis_url(match.pk))
    analysis = Analysis.objects.get(match=match)
    # a live worker holds it: a duplicate message does nothing
    Analysis.objects.filter(pk=analysis.pk).update(status=AnalysisStatus.RUNNING,
                                                   heartbeat_at=timezone.now())
    assert running.run_analysis(analysis.pk) == "skipped"
    # its heartbeat stopped: the next request sends it again (eagerly here) and it finishes
    Analysis.objects.filter(pk=analysis.pk).update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS + 1))
    with eager_celery():  # the answer is the request's: queued again (the task runs on commit)
        assert client.post(analysis_url(match.pk)).json()["status"] == "queued"
    assert Analysis.objects.get(pk=analysis.pk).status == AnalysisStatus.DONE
    assert client.get(analysis_url(match.pk)).status_code == 200


def test_rated_matches_are_analysed_when_a_setting_says_so(make_user, settings):
    player = make_user()
    settings.ANALYSE_RATED_MATCHES = False
    quiet = finished_match(player, "hansa", bot="greedy")  # rated: a person and a bot
    assert not Analysis.objects.filter(match=quiet).exists()
    settings.ANALYSE_RATED_MATCHES = True
    rated = finished_match(player, "hansa", bot="greedy")
    analysis = Analysis.objects.get(match=rated)
    assert analysis.requested_by is None and analysis.status == AnalysisStatus.DONE


def test_a_match_of_an_older_rules_version_kept_is_analysed_under_its_own_rules(
        make_user, make_auth_client):
    """A release that bumps a game's rules version (issue 44: Hansa 2 -> 3) leaves the
    finished matches of the version it keeps analysable (rules/versions.py)."""
    player = make_user()
    match = finished_match(player, "hansa")
    Match.objects.filter(pk=match.pk).update(rules_version="2")
    answer = make_auth_client(player).post(analysis_url(match.pk))
    assert answer.status_code == 202, answer.content
    assert answer.json()["rules_version"] == "2"
