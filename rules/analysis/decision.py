"""One decision judged from what its seat could know: the move played against the best
move the search finds, both valued from the seat's view at that ply.

The search (from the view alone) names its ``CANDIDATES`` best moves; they and the move
played are each played out in the same worlds sampled from the seat's view
(``engine.sample_state``), with the same rollout randomness (common random numbers), so
their differences are not drowned by the luck of the worlds drawn. Two figures per move:

- its **value**: the mean of the seat's points ahead of the field (its score minus the
  mean of the other seats' scores) at the rollout's end;
- its **result**: the mean share of the other seats the seat finishes ahead of (a tie
  counts half): its chance to win, in a two-player game.

The best move is the candidate with the best result (then the best value). The points
lost (``loss``) are what the issue asks for and what the labels read; the result lost
(``result_loss``) is what accuracy reads: a seat far ahead or far behind cannot change
who wins, its moves there lose no result whatever points they give away, and the bots
(whose reward is mostly winning) play such positions loosely. Judged in points, those
loose moves of a winner made it look the less accurate seat (docs/analysis.md).

Nothing here ever gets the true state: only the view, the seat's legal moves and the move
it played (tests/rules/test_analysis_never_peeks.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.analysis import search
from rules.engine import Engine
from rules.rng import SeededRng

#: the search's best moves judged beside the move played (its choice and two runners-up):
#: its most visited move alone is often not the best of what it saw
CANDIDATES = 3

#: the judge's version, stored with each analysis: one judged by another version is
#: never served as today's, and the next request judges it again (games/analysis/). Raise
#: it whenever a figure of the same decision would change: this module, the search it
#: asks (rules/analysis/search.py, rules/bots/ismcts.py), the engines' ``sample_state``
#: and rollouts. tests/rules/test_judge_version.py pins 22 decisions' figures per version.
#: 1: points alone (the search's choice against the move played); 2: results first,
#: three candidates in common worlds (docs/analysis.md).
JUDGE_VERSION = 2


@dataclass(frozen=True)
class AnalysisBudget:
    #: search iterations per decision (the hard bot uses 300 per move)
    iterations: int = 300
    #: sampled worlds in which the played move and the candidates are played out
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
    #: expected share of the other seats beaten after each (0 to 1)
    result_played: float
    result_best: float
    #: legal moves the seat had (1: a forced move, not counted in accuracy)
    choices: int

    @property
    def loss(self) -> float:
        """Points given away against the best move (0 when it scores no more)."""
        return max(0.0, self.value_best - self.value_played)

    @property
    def result_loss(self) -> float:
        return self.result_best - self.result_played

    def to_json(self) -> dict:
        return {"seat": self.seat, "played": self.played, "best": self.best,
                "value_played": round(self.value_played, 3),
                "value_best": round(self.value_best, 3),
                "loss": round(self.loss, 3),
                "result_played": round(self.result_played, 4),
                "result_best": round(self.result_best, 4),
                "result_loss": round(self.result_loss, 4), "choices": self.choices}


def points_ahead(scores: list[float], seat: int) -> float:
    """``seat``'s score minus the mean of the others' (its own score when alone): linear in
    the scores, so its expectation is the expected points ahead of the field."""
    others = [score for other, score in enumerate(scores) if other != seat]
    return scores[seat] - (sum(others) / len(others) if others else 0.0)


def share_beaten(scores: list[float], seat: int) -> float:
    """The share of the other seats ``seat`` finishes ahead of, a tie counting half (1.0
    when alone): in a two-player game 1 for a win, 0.5 a tie, 0 a loss."""
    others = [score for other, score in enumerate(scores) if other != seat]
    if not others:
        return 1.0
    mine = scores[seat]
    return sum(1.0 if mine > score else 0.5 if mine == score else 0.0
               for score in others) / len(others)


def analyse_decision(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                     played: dict, key: str, budget: AnalysisBudget) -> DecisionAnalysis:
    """Judge ``played`` (one of ``legal_moves``) for ``seat`` from ``view``. Every random
    number comes from ``key`` (the match's revealed seed, the ply and the seat: the same
    decision gets the same analysis anywhere)."""
    if played not in legal_moves:
        raise ValueError(f"the move judged is not among seat {seat}'s legal moves")
    candidates = [played]
    if len(legal_moves) > 1:
        found = search.candidate_moves(engine, view, legal_moves, seat,
                                       SeededRng(f"{key}:search"), budget.iterations,
                                       CANDIDATES)
        candidates += [move for move in found if move != played]
    values = [0.0] * len(candidates)
    results = [0.0] * len(candidates)
    for world_index in range(budget.samples):
        world = engine.sample_state(view, seat, SeededRng(f"{key}:world:{world_index}"))
        for index, move in enumerate(candidates):
            after, _events = engine.apply(world, seat, move)
            scores = search.estimated_scores(engine, after,
                                             SeededRng(f"{key}:rollout:{world_index}"))
            values[index] += points_ahead(scores, seat) / budget.samples
            results[index] += share_beaten(scores, seat) / budget.samples
    # the best result, then the best value; the move played on a tie (nothing lost)
    best = max(range(len(candidates)), key=lambda i: (results[i], values[i], i == 0))
    return DecisionAnalysis(seat=seat, played=played, best=candidates[best],
                            value_played=values[0], value_best=values[best],
                            result_played=results[0], result_best=results[best],
                            choices=len(legal_moves))
