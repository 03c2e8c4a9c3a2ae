"""The search of the ``hard_v1`` level, frozen as it was before issue 23 so the new search
(rules/bots/ismcts.py) can be measured against it (bench/bot_strength.py). Do not improve
it: it is the yardstick. Differences from the new search: it samples from the view without
the history's public knowledge (``choose_ismcts_v1_move`` drops the view's ``knowledge``),
keys opponents' moves by the whole move (hidden cards included), lets the observer choose
first in simultaneous phases, weighs the prior on [0, 1] against a reward whose score term
is tiny, and stops at a wall-clock cap (6 s for hard_v1) as well as at its iterations; a
stop by the cap is counted in ``rules.bots.ismcts.backstop_firings`` like the new search's
backstop (issue 44).

Information Set Monte Carlo Tree Search (single observer; Cowling, Powley and Whitehouse,
2012) over the engine contract only: nothing here knows a game.

Each iteration draws a determinization, ``engine.sample_state(view, seat, rng)``: a full
state consistent with what the bot's seat sees, its hidden parts dealt at random. The bot
never gets the true state (it is handed the view, like every bot), so it cannot peek. The
iteration then walks one tree shared by all determinizations: a node is the sequence of
moves from the root; at each node only the moves legal in *this* determinization count,
and UCB1 uses how often a child was available as its parent count (ISUCB), so a move that
is legal only with some hidden cards is not punished for the iterations where it was not.
Every seat picks by its own reward, so opponents play well, not kindly. A new node is added
per iteration, then a rollout plays random legal moves (``engine.playout_move``: cheap to
draw, the game decides how evenly its kinds of move are weighed) for up to
``rollout_depth`` plies (8) and scores the position: final scores if the game ended, else
``engine.estimate_scores`` (the final scores the position points to, as the game projects
them: Han scores the board as it stands, Hansa also pays every round still to come at the
current standings), turned into a reward in [0, 1] per seat that mixes the share of
opponents beaten with the score margin over the best opponent.

Simultaneous phases (several seats in ``to_act``): the tree lets the observer choose first,
so its choice cannot depend on an opponent's secret one; other seats follow in seat order.

The budget is a number of iterations and a wall-clock cap, whichever ends first. With the
cap out of reach the search is a pure function of (view, legal moves, seat, rng state), so a
seed and an iteration budget give the same move on any machine. It plays the root move
visited most (ties: higher mean reward, then ``legal_moves`` order); a search cut short by
the clock still has a best move, and with one legal move it does not search at all.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass

from rules.bots.ismcts import (
    _BEST_SO_FAR,  # one hand-over for both searches (bot_turns)
    backstop_firings,
)
from rules.engine import Engine
from rules.rng import SeededRng

logger = logging.getLogger(__name__)

@dataclass(frozen=True)
class SearchBudget:
    #: iterations (determinize, select, expand, roll out, back up) per move
    iterations: int
    #: wall-clock cap in seconds; the search stops at whichever limit comes first
    seconds: float
    #: plies a rollout plays before ``estimate_scores`` judges it (None: to the end). Longer
    #: rollouts judge better (docs/bots.md: four-player Hansa against greedy won 35% with
    #: 0 plies, 42% with 4, 47% with 8); to the end costs 2-3 times as much as 8 plies
    rollout_depth: int | None = 8
    #: UCB1 exploration constant (rewards lie in [0, 1])
    exploration: float = 0.7
    #: weight of the root prior (``engine.move_value`` from the bot's own view, scaled to
    #: [0, 1]); it fades as a move's visits grow (progressive bias)
    prior_weight: float = 1.0
    #: progressive widening: a node visited v times may have grown ceil(widening * sqrt(v+1))
    #: children (None: every move is tried once before any is tried twice)
    widening: float | None = 1.5


class _Node:
    __slots__ = ("children", "visits", "reward", "available")

    def __init__(self) -> None:
        self.children: dict[str, _Node] = {}
        self.visits = 0
        self.reward = 0.0  # summed reward of the seat whose move leads here
        self.available = 0  # iterations in which this node's move was legal (ISUCB)


def move_key(move: dict) -> str:
    """A move's identity in the tree. ``legal_moves`` builds moves in one canonical form
    (same keys in the same order), so its repr names it exactly and fast."""
    return repr(move)


def rewards_from_scores(scores: list[float]) -> list[float]:
    """Per seat, in [0, 1]: half the share of opponents it beats (a tie is half a win), half
    its margin over the best opponent, scaled by the size of the scores."""
    n = len(scores)
    if n < 2:
        return [1.0] * n
    out = []
    for seat, mine in enumerate(scores):
        others = [score for other, score in enumerate(scores) if other != seat]
        beaten = sum(1.0 if mine > s else 0.5 if mine == s else 0.0 for s in others)
        best = max(others)
        margin = (mine - best) / (abs(mine) + abs(best) + 1.0)
        out.append(0.5 * beaten / (n - 1) + 0.25 * (1.0 + margin))
    return out


def _count_cap(search: IsmctsSearch) -> None:
    """The wall-clock cap stopped a search short of its iterations: counted in the same
    ``backstop_firings`` as the new search (bench/bot_strength.py reports them) and logged,
    so a cut-short hard_v1 no longer passes as a full one. The move is unchanged."""
    backstop_firings[("hard_v1", search.budget.iterations)] += 1
    logger.warning("hard_v1 search cap fired: %s of %s iterations in %.1f s (seat %s)",
                   search.iterations, search.budget.iterations, search.budget.seconds,
                   search.seat)


def _acting_seat(to_act: list[int], observer: int) -> int:
    return observer if observer in to_act else to_act[0]


class IsmctsSearch:
    """One search for one decision of ``seat``; ``run`` returns the move to play."""

    def __init__(self, engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                 rng: SeededRng, budget: SearchBudget, clock=time.perf_counter) -> None:
        self.engine = engine
        self.view = view
        self.legal = legal_moves
        self.seat = seat
        self.rng = rng
        self.budget = budget
        self.clock = clock
        self.root = _Node()
        self.iterations = 0
        self.prior: dict[str, float] = {}
        # the root's moves are the same every iteration: name them once (repr of ~130 Hansa
        # moves per iteration was a sixth of the search time)
        self.root_keys = [move_key(move) for move in legal_moves]

    def run(self) -> dict:
        if not self.legal:
            raise ValueError(f"seat {self.seat} has no legal move to choose from")
        if len(self.legal) == 1:
            return self.legal[0]
        deadline = self.clock() + self.budget.seconds
        self.prior = self._root_prior()
        try:
            while self.iterations < self.budget.iterations:
                self._iterate()
                self.iterations += 1
                if self.clock() >= deadline:
                    if self.iterations < self.budget.iterations:
                        _count_cap(self)  # counted like the new search's backstop
                    break
        except BaseException as interruption:
            # Stopped from outside in the middle of the search (a worker's time limit is
            # raised inside the running code): the exception carries the best move found
            # so far to whoever catches it (``best_move_so_far``), once there is one.
            if self.iterations:
                setattr(interruption, _BEST_SO_FAR, self.best_move())
            raise
        return self.best_move()

    def best_move(self) -> dict:
        """The root's most visited legal move so far (never nothing: with no visit yet, the
        first legal move)."""
        best, best_rank = self.legal[0], None
        for move, key in zip(self.legal, self.root_keys, strict=True):
            child = self.root.children.get(key)
            if child is None or child.visits == 0:
                continue
            rank = (child.visits, child.reward / child.visits)
            if best_rank is None or rank > best_rank:
                best, best_rank = move, rank
        return best

    def _root_prior(self) -> dict[str, float]:
        """The immediate value of each root move, judged by the engine from the bot's own
        view (what the greedy bot maximises), scaled to [0, 1]. It steers the first
        visits: with few iterations and many moves the search starts from greedy's
        choice rather than from a random one."""
        if not self.budget.prior_weight:
            return {}
        values = dict(zip(self.root_keys,
                          self.engine.move_values(self.view, self.seat, self.legal),
                          strict=True))
        low, high = min(values.values()), max(values.values())
        if high <= low:
            return {}
        return {key: (value - low) / (high - low) for key, value in values.items()}

    # -- one iteration ------------------------------------------------------------------
    def _iterate(self) -> None:
        engine, rng = self.engine, self.rng
        state = engine.sample_state(self.view, self.seat, rng)
        node = self.root
        path: list[tuple[_Node, int]] = []  # (node, seat whose move led to it)
        expanded = False
        while not expanded and not engine.is_over(state):
            mover = _acting_seat(engine.to_act(state), self.seat)
            at_root = node is self.root
            if at_root:
                moves, keys = self.legal, self.root_keys
            else:
                moves = engine.legal_moves(state, mover)
                keys = [move_key(move) for move in moves]
            prior = self.prior if at_root else None
            untried, available = [], []
            for move, key in zip(moves, keys, strict=True):
                child = node.children.get(key)
                if child is None:
                    untried.append((key, move))
                else:
                    child.available += 1
                    available.append((child, move, key))
            if untried and len(available) < self._width(node):
                if prior:  # the most promising untried move first, ties at random
                    top = max(prior[key] for key, _ in untried)
                    untried = [(key, move) for key, move in untried if prior[key] == top]
                key, move = untried[rng.randbelow(len(untried))]
                child = _Node()
                child.available = 1
                node.children[key] = child
                expanded = True
            else:
                child, move = self._select(available, prior)
            state, _ = engine.apply(state, mover, move)
            path.append((child, mover))
            node = child
        rewards = rewards_from_scores(self._rollout(state))
        for visited, mover in path:
            visited.visits += 1
            visited.reward += rewards[mover]
        self.root.visits += 1

    def _width(self, node: _Node) -> int | float:
        """How many children a node may have grown (progressive widening: more as it is
        visited more), so a few iterations over a hundred moves still compare some moves
        well instead of all of them once."""
        if self.budget.widening is None:
            return math.inf
        return math.ceil(self.budget.widening * math.sqrt(node.visits + 1))

    def _select(self, available: list[tuple[_Node, dict, str]], prior: dict | None):
        """UCB1 over the children available in this determinization (ISUCB), plus the
        fading prior at the root."""
        explore, weight = self.budget.exploration, self.budget.prior_weight
        best, best_score = None, -math.inf
        for child, move, key in available:
            score = child.reward / child.visits + explore * math.sqrt(
                math.log(child.available) / child.visits
            )
            if prior:
                score += weight * prior[key] / (child.visits + 1)
            if score > best_score:
                best, best_score = (child, move), score
        return best

    def _rollout(self, state) -> list[float]:
        engine, rng = self.engine, self.rng
        depth = self.budget.rollout_depth
        plies = 0
        while not engine.is_over(state) and (depth is None or plies < depth):
            mover = engine.to_act(state)[0]
            state, _ = engine.apply(state, mover, engine.playout_move(state, mover, rng))
            plies += 1
        if engine.is_over(state):
            return [float(score) for score in engine.result(state)["scores"]]
        return engine.estimate_scores(state)


def choose_ismcts_v1_move(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                          rng: SeededRng, budget: SearchBudget) -> dict:
    """The bot function of ``hard_v1``: the old search on the view as it was before the
    public knowledge was added to it (so its samples are as they were)."""
    old_view = {key: value for key, value in view.items() if key != "knowledge"}
    return IsmctsSearch(engine, old_view, legal_moves, seat, rng, budget).run()
