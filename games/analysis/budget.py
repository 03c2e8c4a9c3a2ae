"""The analysis budget, rules version and judge the service analyses with today: together
with the match they name the stored analysis that answers a request."""

from __future__ import annotations

from django.conf import settings

from rules import get_engine
from rules.analysis import AnalysisBudget


def current_budget() -> AnalysisBudget:
    return AnalysisBudget(iterations=max(1, settings.ANALYSIS_ITERATIONS),
                          samples=max(1, settings.ANALYSIS_SAMPLES))


def current_rules_version(game: str) -> str:
    return str(get_engine(game).rules_version)


def current_key(game: str) -> dict:
    """The fields, besides the match, that name the stored analysis answering today (one
    per match, rules version and budget); it answers only once today's judge
    (``rules.analysis.JUDGE_VERSION``) made it."""
    budget = current_budget()
    return {"rules_version": current_rules_version(game), "iterations": budget.iterations,
            "samples": budget.samples}
