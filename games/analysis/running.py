"""Computing an analysis, decision by decision, in the analysis worker.

The replay hands each decision's view and legal moves to ``rules.analysis`` (never the
state). Each analysed decision is stored at once with the progress and a heartbeat, so a
worker that dies loses at most one decision: the task sent again resumes after the last
one stored. The CPU a match may use is capped (``ANALYSIS_CPU_SECONDS``, this thread's CPU
time): past it the analysis stops with the decisions before it (status ``stopped``).
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.analysis import progress
from games.analysis.models import AnalysedDecision, Analysis, AnalysisStatus
from games.matches.played_rules import engine_of
from games.matches.replay import logged_moves
from rules.analysis import (
    JUDGE_VERSION,
    AnalysisBudget,
    analyse_decision,
    decision_key,
    iter_decisions,
    label,
    match_summary,
    thresholds_for,
)

logger = logging.getLogger(__name__)


def run_analysis(analysis_id: int) -> str:
    """Compute (or resume) the analysis ``analysis_id``; returns its final status, or
    ``"skipped"`` when there is nothing to do (done already, gone, or another worker is on
    it)."""
    analysis = _claim(analysis_id)
    if analysis is None:
        return "skipped"
    try:
        status = _analyse(analysis)
    except Exception:
        logger.exception("analysis %s failed", analysis_id)
        Analysis.objects.filter(pk=analysis_id).update(status=AnalysisStatus.FAILED)
        progress.publish(analysis.match_id, status=AnalysisStatus.FAILED,
                         done=analysis.decisions_done, total=analysis.decisions_total)
        raise
    return status


def _claim(analysis_id: int) -> Analysis | None:
    """Mark the analysis running unless it is finished or a live worker holds it (a
    duplicate message, or the same one redelivered)."""
    with transaction.atomic():
        analysis = (Analysis.objects.select_for_update().select_related("match")
                    .filter(pk=analysis_id).first())
        if analysis is None or analysis.status in (AnalysisStatus.DONE, AnalysisStatus.STOPPED):
            return None
        if analysis.judge_version != JUDGE_VERSION:
            # sent before a release that changed the judge: computed today it would be
            # stored under a judge that did not make it; a request makes today's
            return None
        fresh = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
        if (analysis.status == AnalysisStatus.RUNNING and analysis.heartbeat_at is not None
                and analysis.heartbeat_at >= fresh):
            return None
        analysis.status = AnalysisStatus.RUNNING
        analysis.started_at = analysis.started_at or timezone.now()
        analysis.heartbeat_at = timezone.now()
        analysis.save(update_fields=["status", "started_at", "heartbeat_at"])
    return analysis


def _analyse(analysis: Analysis) -> str:
    match = analysis.match
    engine = engine_of(match)  # the rules it was played under
    thresholds = thresholds_for(match.game)
    budget = AnalysisBudget(iterations=analysis.iterations, samples=analysis.samples)
    log = logged_moves(match)
    start = AnalysedDecision.objects.filter(analysis=analysis).count()  # stored in ply order
    status = AnalysisStatus.DONE
    for decision in iter_decisions(engine, match.players, match.options, match.seed, log,
                                   start=start):
        if analysis.cpu_seconds >= settings.ANALYSIS_CPU_SECONDS:
            status = AnalysisStatus.STOPPED
            break
        started = time.thread_time()
        judged = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                                  decision.played,
                                  decision_key(match.seed, decision.ply, decision.seat), budget)
        spent = time.thread_time() - started
        loss = max(0.0, judged.loss)
        with transaction.atomic():
            AnalysedDecision.objects.create(
                analysis=analysis, ply=decision.ply, seat=decision.seat,
                played=judged.played, best=judged.best, value_played=judged.value_played,
                value_best=judged.value_best, loss=loss,
                result_played=judged.result_played, result_best=judged.result_best,
                result_loss=judged.result_loss,
                label=(label(loss, thresholds) or "") if judged.choices > 1 else "",
                choices=judged.choices, cpu_ms=spent * 1000)
            analysis.decisions_done = decision.ply + 1
            analysis.cpu_seconds += spent
            analysis.heartbeat_at = timezone.now()
            analysis.save(update_fields=["decisions_done", "cpu_seconds", "heartbeat_at"])
        progress.publish_throttled(analysis.match_id, status=AnalysisStatus.RUNNING,
                                   done=analysis.decisions_done, total=analysis.decisions_total)
    rows = list(AnalysedDecision.objects.filter(analysis=analysis)
                .values("ply", "seat", "loss", "result_loss", "value_best", "choices"))
    analysis.seats = match_summary(rows, match.players, thresholds)
    analysis.status = status
    analysis.finished_at = timezone.now()
    analysis.save(update_fields=["seats", "status", "finished_at"])
    progress.publish(analysis.match_id, status=status, done=analysis.decisions_done,
                     total=analysis.decisions_total)
    return status
