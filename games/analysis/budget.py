"""The analysis budget, rules version and judge the service analyses with today: together
with the match they name the stored analysis that answers a request."""

from __future__ import annotations

from django.conf import settings

from games.matches.models import Match
from rules.analysis import AnalysisBudget


def current_budget() -> AnalysisBudget:
    return AnalysisBudget(iterations=max(1, settings.ANALYSIS_ITERATIONS),
                          samples=max(1, settings.ANALYSIS_SAMPLES))


def current_key(match: Match) -> dict:
    """The fields, besides the match, that name the stored analysis answering today (one
    per match, rules version and budget); it answers only once today's judge
    (``rules.analysis.JUDGE_VERSION``) made it. The rules are the ones the match was played
    under (rules/versions.py): a release that bumps a game's rules version leaves its
    finished matches analysable."""
    budget = current_budget()
    return {"rules_version": match.rules_version, "iterations": budget.iterations,
            "samples": budget.samples}
