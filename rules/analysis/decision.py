"""One decision judged from what its seat could know: the move played against the best
move the search finds, both valued from the seat's view at that ply.

The search (from the view alone) names its ``CANDIDATES`` best moves, then gives the move
played iterations of its own until it has a tenth of the search's (``search.PLAYED_SHARE``),
so every move judged is valued the same way: by the search's **result**, its mean reward
for the seat after that move, with the opponents' replies searched below it. The judge's
search is rewarded by winning alone (judge 7, ``search.JUDGE_REWARD``: the
share of the other seats the seat finishes ahead of, a tie half), not by the bots' reward,
whose margin half values points that change no winner. The result lost is read against
the candidate with the best result; that candidate is also the move shown as the best,
unless the move played scores at least as many points (then the move played is shown, and
loses no points).
Each move's **value** (points) is the mean of the seat's points ahead of the field (its
score minus the mean of the other seats') where it is played out in the same worlds sampled
from the seat's view (``engine.sample_state``), with the same rollout randomness (common
random numbers), so their differences are not drowned by the luck of the worlds drawn.

The points lost (``loss``) are what the labels read; the result lost (``result_loss``) is
what accuracy reads: a seat far ahead or far behind cannot change who wins, its moves there
lose no result whatever points they give away, and the bots (whose reward is mostly
winning) play such positions loosely. Judged in points, those loose moves of a winner made
it look the less accurate seat. Judged by the result of a few moves played out in the
worlds (judge 2), the move played and the best were compared after one move and eight
random plies; the search's result also weighs the replies, and the seat it rates more
accurate wins more often between equal bots (docs/analysis.md).

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
#: three candidates in common worlds; 3: results from the search, the move played given
#: its share of it (docs/analysis.md); 4: as 3, over worlds the whole history allows
#: (issue 44: the samplers' face-down and reshuffle constraints); 5: as 4, and the move
#: played is the best move whenever it scores at least as many points as the search's
#: best (issue 41); 6: as 5 for the move shown and the points lost, but the result lost is
#: always against the candidate with the best result (issue 44: 5's rule made accuracy
#: read points again); 7: as 6, the judge's search rewarded by winning alone, not the
#: bots' reward with its margin half (issue 44, search.JUDGE_REWARD).
JUDGE_VERSION = 7

@dataclass(frozen=True)
class AnalysisBudget:
    #: search iterations per decision (the hard bot uses 300 per move at two seats), and a
    #: tenth more at most for the move played
    iterations: int = 300
    #: sampled worlds in which the played move and the candidates are played out (their
    #: values in points)
    samples: int = 24

    def to_json(self) -> dict:
        return {"iterations": self.iterations, "samples": self.samples}


@dataclass(frozen=True)
class DecisionAnalysis:
    """Two judgements of one decision, each against its own best (since judge 6):

    - in **points** (what the labels read), against the move **shown** as the best:
      ``best``, the candidate with the best result, unless the move played scores at least
      as many points, when ``best`` is the move played itself and ``loss`` is 0 (issue 41);
    - in **result** (what accuracy reads), always against ``result_best``, the best result
      the search found among the candidates, whichever move is shown. So ``best`` may equal
      ``played`` with a positive ``result_loss``: a move that scores more points but gives
      away more of the chance to win (docs/analysis.md, point 3)."""

    seat: int
    played: dict
    #: the move shown as the best (the move played when it scores at least as many points
    #: as the candidate with the best result)
    best: dict
    #: expected points ahead of the field after the move played / after the move shown
    value_played: float
    value_best: float
    #: the search's mean reward for the seat (0 to 1: the expected share of the other
    #: seats beaten, judge 7) after the move played, and the best mean reward among the
    #: candidates (the move played included): not necessarily the shown move's
    result_played: float
    result_best: float
    #: legal moves the seat had (1: a forced move, not counted in accuracy)
    choices: int

    @property
    def loss(self) -> float:
        """Points given away against the move shown as the best (0 when it is the move
        played)."""
        return max(0.0, self.value_best - self.value_played)

    @property
    def result_loss(self) -> float:
        """The search's reward given away against the best result among the candidates (0
        when the move played has it); what accuracy reads."""
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


def analyse_decision(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                     played: dict, key: str, budget: AnalysisBudget,
                     reward: search.Reward = search.JUDGE_REWARD) -> DecisionAnalysis:
    """Judge ``played`` (one of ``legal_moves``) for ``seat`` from ``view``. Every random
    number comes from ``key`` (the match's revealed seed, the ply and the seat: the same
    decision gets the same analysis anywhere). ``reward`` is what the search plays for:
    the judge's unless a study compares judges on the same decisions (bench/)."""
    if played not in legal_moves:
        raise ValueError(f"the move judged is not among seat {seat}'s legal moves")
    candidates, rewards = [played], [0.0]
    if len(legal_moves) > 1:
        searched_played, found = search.searched_moves(
            engine, view, legal_moves, seat, played, SeededRng(f"{key}:search"),
            budget.iterations, CANDIDATES, reward)
        rewards = [searched_played.reward]
        for runner in found:
            if runner.move != played:
                candidates.append(runner.move)
                rewards.append(runner.reward)
    values = [0.0] * len(candidates)
    for world_index in range(budget.samples):
        world = engine.sample_state(view, seat, SeededRng(f"{key}:world:{world_index}"))
        for index, move in enumerate(candidates):
            after, _events = engine.apply(world, seat, move)
            scores = search.estimated_scores(engine, after,
                                             SeededRng(f"{key}:rollout:{world_index}"))
            values[index] += points_ahead(scores, seat) / budget.samples
    # the search's best reward, then the best value; the move played on a tie
    result_best = max(range(len(candidates)), key=lambda i: (rewards[i], values[i], i == 0))
    shown = result_best
    if values[0] >= values[result_best]:
        # A better reward but no more points is not a better move to show: the admin once
        # showed "best found move (-5.0)" beside "played (-2.729)" (issue 41). The move
        # played is then shown as the best move and loses no points; its result loss is
        # still read against the best result (judge 6: zeroing it too put points back into
        # accuracy, and between equals the more accurate seat won 58% instead of 68-82%).
        shown = 0
    return DecisionAnalysis(seat=seat, played=played, best=candidates[shown],
                            value_played=values[0], value_best=values[shown],
                            result_played=rewards[0], result_best=rewards[result_best],
                            choices=len(legal_moves))
