"""Post-game analysis: every decision of a finished match judged from what its seat could
know at that ply (its view), by the bots' search (rules/bots/ismcts.py, reached through
rules/analysis/search.py only). Pure, like the rest of rules/: the service stores and
serves it (games/analysis/), bench/analysis_validity.py checks that it ranks known
strengths correctly."""

from rules.analysis.decision import (
    JUDGE_VERSION,
    AnalysisBudget,
    DecisionAnalysis,
    analyse_decision,
)
from rules.analysis.grading import label, match_summary, seat_summary, thresholds_for
from rules.analysis.match import Decision, decision_key, iter_decisions

__all__ = ["JUDGE_VERSION", "AnalysisBudget", "Decision", "DecisionAnalysis", "analyse_decision",
           "decision_key", "iter_decisions", "label", "match_summary", "seat_summary",
           "thresholds_for"]
