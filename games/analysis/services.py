"""Requesting an analysis: who may, how often, and joining one that exists.

One analysis per match, rules version and budget (games/analysis/models.py): a request
while one is queued or running joins it (and so does one after it is done: it is simply
served). The task that computes it is sent by name on commit (games/dispatch.py), to the
analysis queue (config/settings.py), which bot turns and scoring never share.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.analysis import errors
from games.analysis.budget import current_key
from games.analysis.models import AnalysedDecision, Analysis, AnalysisStatus
from games.dispatch import ANALYSIS_TASK, enqueue
from games.matches import errors as match_errors
from games.matches.guards import lock_match, require_user
from games.matches.models import Match, MatchStatus
from games.matches.permissions import can_manage_matches
from games.matches.played_rules import replayable
from games.matches.seat_players import players_by_seat
from rules.analysis import JUDGE_VERSION
from rules.versions import current_version


def request_analysis(match_id: Any, user) -> tuple[Analysis, bool]:
    """Ask for the analysis of a finished match as ``user`` (a player of it, or an admin).
    Returns ``(analysis, created)``; ``created`` is False when the request joined one
    that exists. Raises AuthenticationRequired, MatchNotFound, NotAllowed, NotFinished,
    RulesChanged, DailyLimitReached; nothing is written then."""
    require_user(user)
    with transaction.atomic():
        match = lock_match(match_id)  # concurrent requests for one match queue up here
        admin = can_manage_matches(user)
        players = players_by_seat(match.seats.all(), match.incidents.order_by("id"))
        if not admin and user.pk not in players.values():
            raise match_errors.NotAllowed(_("Only a player of this match or an admin can "
                                            "request its analysis."))
        analysis, created = _find_or_create(match, requested_by=user, limited=not admin)
    return analysis, created


def request_automatic(match_id: int) -> Analysis | None:
    """The analysis a rated match gets when it is scored (``ANALYSE_RATED_MATCHES``):
    requested by no one, counted against no one's limit. None if the match cannot have
    one (gone, not finished, other rules)."""
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None:
            return None
        try:
            return _find_or_create(match, requested_by=None, limited=False)[0]
        except (match_errors.NotFinished, errors.RulesChanged):
            return None


def _find_or_create(match: Match, *, requested_by, limited: bool) -> tuple[Analysis, bool]:
    """Under the match's lock: the analysis for today's rules and budget, found (and sent
    again if its worker was lost, or judged again if another judge made it) or created and
    sent."""
    if match.status != MatchStatus.FINISHED:
        raise match_errors.NotFinished(_("Only a finished match can be analysed."),
                                       details={"status": match.status})
    if not replayable(match):  # played under rules no engine here keeps (rules/versions.py)
        raise errors.RulesChanged(details={"played_under": match.rules_version,
                                           "current": current_version(match.game)})
    key = current_key(match)
    analysis = Analysis.objects.filter(match=match, **key).first()
    if analysis is not None and analysis.judge_version != JUDGE_VERSION:
        _judge_again(analysis)
        return analysis, True
    if analysis is not None:
        if _lost(analysis):
            analysis.status = AnalysisStatus.QUEUED
            analysis.heartbeat_at = timezone.now()  # one resend per stale period
            analysis.save(update_fields=["status", "heartbeat_at"])
            _send_on_commit(analysis.pk)
        return analysis, False
    if limited:
        _check_daily_limit(requested_by)
    analysis = Analysis.objects.create(match=match, **key, judge_version=JUDGE_VERSION,
                                       requested_by=requested_by, decisions_total=match.ply,
                                       heartbeat_at=timezone.now())
    _send_on_commit(analysis.pk)
    return analysis, True


def _judge_again(analysis: Analysis) -> None:
    """An analysis another judge made (a release changed the judge or its search since):
    its figures are not today's, so it starts over in place under today's judge. Not
    counted against the daily limit: the change was the service's, not the player's."""
    AnalysedDecision.objects.filter(analysis=analysis).delete()
    analysis.judge_version = JUDGE_VERSION
    analysis.status = AnalysisStatus.QUEUED
    analysis.decisions_done = 0
    analysis.cpu_seconds = 0.0
    analysis.seats = []
    analysis.started_at = analysis.finished_at = None
    analysis.heartbeat_at = timezone.now()
    analysis.save(update_fields=["judge_version", "status", "decisions_done", "cpu_seconds",
                                 "seats", "started_at", "finished_at", "heartbeat_at"])
    _send_on_commit(analysis.pk)


def _lost(analysis: Analysis) -> bool:
    """A failed analysis, or one queued or running whose heartbeat stopped (its message
    or its worker was lost): the next request sends it again, and the task resumes after
    the decisions already stored."""
    if analysis.status == AnalysisStatus.FAILED:
        return True
    if analysis.status not in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING):
        return False
    stale = timezone.now() - timedelta(seconds=settings.ANALYSIS_STALE_SECONDS)
    return analysis.heartbeat_at is None or analysis.heartbeat_at < stale


def _check_daily_limit(user) -> None:
    since = timezone.now() - timedelta(days=1)
    used = Analysis.objects.filter(requested_by=user, created_at__gte=since).count()
    if used >= settings.ANALYSIS_DAILY_LIMIT:
        raise errors.DailyLimitReached(
            _("You may request %(limit)s analyses in 24 hours.")
            % {"limit": settings.ANALYSIS_DAILY_LIMIT},
            details={"limit": settings.ANALYSIS_DAILY_LIMIT, "used": used})


def _send_on_commit(analysis_id: int) -> None:
    transaction.on_commit(lambda: enqueue(ANALYSIS_TASK, analysis_id), robust=True)
