"""The analysis's one door into the bots' search (rules/bots/ismcts.py): find the moves
worth judging at a decision, value them as the search sees them, and play a position out.
Everything else in rules/analysis/ calls these functions only, so a change of the search's
API (a better search, other beliefs from ``engine.sample_state``) is met here, in one
module, and the analysis improves with it.

Both draw every random number from the ``rng`` they are given and never see a state the
seat could not know: the search samples its worlds from the seat's view
(``engine.sample_state``), as the bots do.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.bots.ismcts import IsmctsSearch, SearchBudget, move_key, play_out
from rules.bots.rewards import Reward, win_shares
from rules.engine import Engine
from rules.rng import SeededRng

#: the search's own wall-clock cap, far out of reach: the analysis must be a pure function
#: of its inputs (the same match and budget give the same analysis on any machine); its
#: cost is bounded by iterations per decision and a CPU cap per match instead
#: (games/analysis/running.py)
_NO_CLOCK_CAP = 1e9

#: plies a rollout plays before ``estimate_scores`` judges the position (the bots' depth).
#: Measured against playing to the end with the rollout policy (random moves): a loss
#: judged to the end in 24 worlds was far noisier (split-half correlation of one
#: decision's loss 0.25 against 0.80 at 8 plies, 1,000 Han decisions; docs/analysis.md)
ROLLOUT_DEPTH = 8

#: What the judge's search plays for (judge 7, issue 44): winning alone, the share of the
#: other seats a seat finishes ahead of, a tie half. Accuracy reads the result lost, how much
#: of the chance to win a move gave away; the bots' reward (``rewards_from_scores``) is half
#: that share and half a ``tanh`` of the margin over the best opponent, and that margin half
#: moves the value of a move that widens a lead already safe, or narrows a deficit already
#: hopeless, neither of which changes who wins. A win is a hard threshold on a rollout's
#: scores, not a logistic of the estimated margin: at the bots' own scale such a logistic
#: *is* their margin half (``(1 + tanh(m / s)) / 2 = 1 / (1 + exp(-2 m / s))``), and any
#: other scale would be a free parameter with no measurement of the estimate's error
#: behind it; the search averages the threshold over the worlds and rollouts it draws,
#: which spreads a win into a probability (docs/analysis.md, "Judge 7"). The bots'
#: reward in its place gives judge 6's figures (tests/rules/test_judge_version.py).
JUDGE_REWARD: Reward = win_shares

#: the least share of the search's iterations spent on the move played: a move the search
#: would not have tried (progressive widening grows the root's moves slowly) still gets a
#: value from the tree, with the opponents' best replies searched below it
PLAYED_SHARE = 0.1


@dataclass(frozen=True)
class SearchedMove:
    move: dict
    #: iterations through the move at the root
    visits: int
    #: the search's mean reward for the seat after it: with the judge's reward
    #: (``JUDGE_REWARD``), the expected share of the other seats it beats
    reward: float


class _JudgeSearch(IsmctsSearch):
    """The bots' search, then iterations that take the move played at the root until it
    has the visits ``force_played`` asks for (none when the search gave it enough)."""

    def __init__(self, *args, played: dict, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.played_key = move_key(played)
        self.played = played
        self.forcing = False

    def _pick(self, node, state, mover: int):
        if self.forcing and node is self.root and mover == self.seat:
            edge, new = self._root_edge(self.played_key)
            return edge, self.played, self.played_key, new
        return super()._pick(node, state, mover)

    def force_played(self, least: int) -> None:
        # each forced iteration takes the move played at the root exactly once, so the
        # number needed is known up front (and the loop is bounded by it)
        self.forcing = True
        try:
            for _ in range(least - self.searched(self.played).visits):
                self._iterate()
                self.iterations += 1
        finally:
            self.forcing = False

    def searched(self, move: dict) -> SearchedMove:
        edge = self.root.edges.get(self.seat, {}).get(move_key(move))
        visits = edge.visits if edge else 0
        return SearchedMove(move, visits, edge.reward / visits if visits else 0.0)


def searched_moves(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                   played: dict, rng: SeededRng, iterations: int, count: int,
                   reward: Reward = JUDGE_REWARD) -> tuple[SearchedMove, list[SearchedMove]]:
    """The move played and the ``count`` moves the search rates best for ``seat`` from
    ``view`` (its choice first: the root's most visited moves), each with the visits and
    the mean reward the search gave it. ``iterations`` is the search's budget; the move
    played then gets iterations of its own until it has ``PLAYED_SHARE`` of them.
    ``reward`` is what every seat in the search plays for: the judge's, winning alone
    (judge 7), unless a study asks for another (the bots' ``rewards_from_scores`` is
    judge 6's)."""
    # the analysis's budget is its own: as many iterations at any number of seats
    budget = SearchBudget(iterations=iterations, seconds=_NO_CLOCK_CAP,
                          rollout_depth=ROLLOUT_DEPTH, grow_with_seats=False)
    search = _JudgeSearch(engine, view, legal_moves, seat, rng, budget, played=played,
                          reward=reward)
    choice = search.run()
    ranked = search.ranked_moves() or [choice]
    search.force_played(max(1, round(PLAYED_SHARE * iterations)))
    return search.searched(played), [search.searched(move) for move in ranked[:count]]


def estimated_scores(engine: Engine, state, rng: SeededRng) -> list[float]:
    """Every seat's final score as a rollout from ``state`` points to it."""
    return play_out(engine, state, rng, ROLLOUT_DEPTH)
