"""Refusals of the analysis endpoints beyond the match errors they share
(games/matches/errors.py: not_authenticated, forbidden, match_not_found, not_finished)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError


class RulesChanged(GameServiceError):
    """The match was played under a rules version this service no longer runs: its log
    may not replay, and an analysis would judge it by other rules."""

    default_code = "rules_version_changed"
    status_code = 409
    default_detail = _("This match was played under rules this service no longer analyses.")


class DailyLimitReached(GameServiceError):
    default_code = "analysis_limit_reached"
    status_code = 429
    default_detail = _("You have requested as many analyses as a day allows.")


class NoAnalysis(GameServiceError):
    default_code = "no_analysis"
    status_code = 404
    default_detail = _("This match has not been analysed; POST to request an analysis.")
