"""The analysis's one door into the bots' search (rules/bots/ismcts.py): find the moves
worth judging at a decision and play a position out. Everything else in rules/analysis/
calls these two functions only, so a change of the search's API (a better search, other
beliefs from ``engine.sample_state``) is met here, in one module, and the analysis
improves with it.

Both draw every random number from the ``rng`` they are given and never see a state the
seat could not know: the search samples its worlds from the seat's view
(``engine.sample_state``), as the bots do.
"""

from __future__ import annotations

from rules.bots.ismcts import IsmctsSearch, SearchBudget, play_out
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


def candidate_moves(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                    rng: SeededRng, iterations: int, count: int) -> list[dict]:
    """The ``count`` moves the search rates best for ``seat`` from ``view`` with
    ``iterations`` iterations, its choice first (the root's most visited moves)."""
    # the analysis's budget is its own: as many iterations at any number of seats
    budget = SearchBudget(iterations=iterations, seconds=_NO_CLOCK_CAP,
                          rollout_depth=ROLLOUT_DEPTH, grow_with_seats=False)
    search = IsmctsSearch(engine, view, legal_moves, seat, rng, budget)
    choice = search.run()
    ranked = search.ranked_moves() or [choice]
    return ranked[:count]


def estimated_scores(engine: Engine, state, rng: SeededRng) -> list[float]:
    """Every seat's final score as a rollout from ``state`` points to it."""
    return play_out(engine, state, rng, ROLLOUT_DEPTH)
