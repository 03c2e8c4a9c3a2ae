"""One decision judged from what its seat could know: the move played against the best
move the search finds, both valued in expected points from the seat's view at that ply.

A move's value is the mean, over worlds sampled from the seat's view
(``engine.sample_state``), of the seat's points ahead of the field (its score minus the
mean of the other seats' scores) after the move and a rollout. The played and the best
move are judged in the same worlds with the same rollout randomness (common random
numbers), so the difference between them is not drowned by the luck of the worlds drawn.
Nothing here ever gets the true state: only the view, the seat's legal moves and the move
it played (tests/rules/test_analysis_never_peeks.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.analysis import search
from rules.engine import Engine
from rules.rng import SeededRng


@dataclass(frozen=True)
class AnalysisBudget:
    #: search iterations per decision (the hard bot uses 300 per move)
    iterations: int = 300
    #: sampled worlds in which the played and the best move are played out and compared
    samples: int = 24

    def to_json(self) -> dict:
        return {"iterations": self.iterations, "samples": self.samples}


@dataclass(frozen=True)
class DecisionAnalysis:
    seat: int
    played: dict
    best: dict
    #: expected points ahead of the field after the move played / after the best move
    value_played: float
    value_best: float
    #: legal moves the seat had (1: a forced move, not counted in accuracy)
    choices: int

    @property
    def loss(self) -> float:
        return self.value_best - self.value_played

    def to_json(self) -> dict:
        return {"seat": self.seat, "played": self.played, "best": self.best,
                "value_played": round(self.value_played, 3),
                "value_best": round(self.value_best, 3),
                "loss": round(self.loss, 3), "choices": self.choices}


def points_ahead(scores: list[float], seat: int) -> float:
    """``seat``'s score minus the mean of the others' (its own score when alone): linear in
    the scores, so its expectation is the expected points ahead of the field."""
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - (sum(others) / len(others) if others else 0.0)


def analyse_decision(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                     played: dict, key: str, budget: AnalysisBudget) -> DecisionAnalysis:
    """Judge ``played`` (one of ``legal_moves``) for ``seat`` from ``view``. Every random
    number comes from ``key`` (the match's revealed seed, the ply and the seat: the same
    decision gets the same analysis anywhere)."""
    if played not in legal_moves:
        raise ValueError(f"the move judged is not among seat {seat}'s legal moves")
    best = played
    if len(legal_moves) > 1:
        best = search.best_move(engine, view, legal_moves, seat, SeededRng(f"{key}:search"),
                                budget.iterations)
    candidates = [played] if best == played else [played, best]
    totals = [0.0] * len(candidates)
    for world_index in range(budget.samples):
        world = engine.sample_state(view, seat, SeededRng(f"{key}:world:{world_index}"))
        for index, move in enumerate(candidates):
            after, _events = engine.apply(world, seat, move)
            scores = search.estimated_scores(engine, after,
                                             SeededRng(f"{key}:rollout:{world_index}"))
            totals[index] += points_ahead(scores, seat)
    values = [total / budget.samples for total in totals]
    value_played, value_best = values[0], values[-1]
    if value_played >= value_best:  # the search's choice judged no better: nothing lost
        best, value_best = played, value_played
    return DecisionAnalysis(seat=seat, played=played, best=best, value_played=value_played,
                            value_best=value_best, choices=len(legal_moves))
