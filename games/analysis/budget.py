"""The analysis budget and rules version the service analyses with today: together with
the match they name the stored analysis that answers a request."""

from __future__ import annotations

from django.conf import settings

from rules import get_engine
from rules.analysis import AnalysisBudget


def current_budget() -> AnalysisBudget:
    return AnalysisBudget(iterations=max(1, settings.ANALYSIS_ITERATIONS),
                          samples=max(1, settings.ANALYSIS_SAMPLES))


def current_rules_version(game: str) -> str:
    return str(get_engine(game).rules_version)
