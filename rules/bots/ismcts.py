"""Information Set Monte Carlo Tree Search (single observer; Cowling, Powley and Whitehouse,
2012) over the engine contract only: nothing here knows a game.

Each iteration draws a determinization, ``engine.sample_state(view, seat, rng)``: a full
state consistent with everything the bot's seat knows (its view, including what the
history made public), its hidden parts dealt at random. The bot never gets the true state
(it is handed the view, like every bot), so it cannot peek.

The tree is the searching seat's (the observer's) tree: a node is the sequence of moves
*as the observer sees them*. An opponent's move leads to the child keyed by
``engine.redact_move(move, mover, observer)``, so two replies that differ only in a card the
observer cannot see (a card played face down to Parliament) share one subtree. Each node
keeps, per seat to act there, statistics keyed by that seat's whole move (a seat knows its
own move): opponents pick among their own moves by their own reward, the observer by its
reward. At each node only the moves legal in *this* determinization count, and UCB1 uses
how often a move was available as its parent count (ISUCB).

Simultaneous phases (several seats in ``to_act``) are searched as simultaneous: every seat
to act picks by its own statistics at the node without seeing the others' picks (decoupled
selection), then all picks are applied and the child is keyed by the observer's view of
them. So no seat in the tree answers a secret choice it could not see.

A new edge is grown per iteration, then a rollout plays ``engine.playout_move`` for up to
``rollout_depth`` plies and scores the position (``engine.estimate_scores`` if unfinished),
turned into a reward in [0, 1] per seat: half the share of opponents beaten, half a smooth
function of the margin over the best opponent, ``tanh(margin / scale)``, steep enough that
a point of margin separates moves of equal rank (``scale`` grows with the scores the
position heads for, so large margins in a high-scoring game are not all alike). The root
prior (``engine.move_value`` from the bot's own view) is put on the same scale: a move worth
``d`` points less than the best starts with the reward those ``d`` points would cost,
fading with visits.

The budget is a number of iterations at two seats; by default each further seat adds as many
again (``SearchBudget.iterations_for``): more opponents' replies stand between two of the
searching seat's moves, so the same number of iterations looks less far into its own
future. The wall-clock ``seconds`` is a backstop far above a budget's usual time: when it
fires, the search is counted (``backstop_firings``) and logged, and plays its best move so
far. Below the backstop the search is a pure function of (view,
legal moves, seat, rng state): a seed gives the same move on any machine, busy or idle. The
CPU time a search spent (``cpu_seconds``) is its think time.
"""

from __future__ import annotations

import logging
import math
import time
from collections import Counter
from dataclasses import dataclass

from rules.bots.rewards import Reward, rewards_from_scores
from rules.engine import Engine
from rules.rng import SeededRng

logger = logging.getLogger(__name__)

#: searches whose wall-clock backstop fired in this process, by (search, iteration budget):
#: "ismcts" for this search, "hard_v1" for the retired one's cap (ismcts_v1), so a
#: two-seat hard (300) and a hard_v1 (300) cut short are told apart
backstop_firings: Counter = Counter()


@dataclass(frozen=True)
class SearchBudget:
    #: iterations (determinize, select, expand, roll out, back up) per move at two seats:
    #: the level
    iterations: int
    #: wall-clock backstop in seconds, far above the budget's usual time; a firing is
    #: counted and logged
    seconds: float
    #: plies a rollout plays before ``estimate_scores`` judges it (None: to the end)
    rollout_depth: int | None = 8
    #: UCB1 exploration constant (rewards lie in [0, 1])
    exploration: float = 0.7
    #: weight of the root prior, in visits: the prior counts as this many visits at the
    #: reward its immediate points promise, fading as real visits come in
    prior_weight: float = 1.0
    #: the least number of points of margin at which the score term reaches tanh(1) of its
    #: range; each search adds a tenth of the two best scores its first sample projects, so
    #: a point weighs the same against a game's usual margins early and late, in Han
    #: (final scores near 50) and in Hansa (near 150): near a tie one point is worth
    #: 0.25 / scale of reward (Han's final decision: 0.0125 against the old 0.0025)
    score_scale: float = 10.0
    #: progressive widening: a seat at a node visited v times may have tried
    #: ceil(widening * sqrt(v+1)) of its moves (None: every move once before any twice)
    widening: float | None = 1.5
    #: each seat past two adds ``iterations`` again (900 for 300 at four seats). Four-player
    #: Hansa against greedy: 59.5% won at 300, 71% at 600 (issue 23, 200 games, the same
    #: seeds), 75% (69%-80%) of 200 fresh games at 900 (issue 44, docs/capacity.md);
    #: two-player games are unchanged
    grow_with_seats: bool = True

    def iterations_for(self, seats: int) -> int:
        """The iterations of one search in a game of ``seats`` seats."""
        if not self.grow_with_seats or seats <= 2:
            return self.iterations
        return self.iterations * (seats - 1)


class _Edge:
    __slots__ = ("visits", "reward", "available")

    def __init__(self) -> None:
        self.visits = 0
        self.reward = 0.0  # summed reward of the seat that makes this move
        self.available = 1  # iterations in which this move was legal here (ISUCB)


class _Node:
    __slots__ = ("children", "edges", "visits")

    def __init__(self) -> None:
        self.children: dict[object, _Node] = {}  # keyed by the observer's view of the moves
        self.edges: dict[int, dict[str, _Edge]] = {}  # seat -> its whole move's key -> stats
        self.visits = 0


def move_key(move: dict) -> str:
    """A move's identity in the tree. ``legal_moves`` builds moves in one canonical form
    (same keys in the same order), so its repr names it exactly and fast."""
    return repr(move)


_BEST_SO_FAR = "ismcts_best_move_so_far"


def best_move_so_far(interruption: BaseException) -> dict | None:
    """The best move an interrupted search had found (its root's most visited move), or
    None when the exception did not stop a search after at least one iteration."""
    return getattr(interruption, _BEST_SO_FAR, None)


class IsmctsSearch:
    """One search for one decision of ``seat``; ``run`` returns the move to play. The bots
    search for ``rewards_from_scores``; the post-game analysis passes its own ``reward``
    (rules/analysis/search.py)."""

    def __init__(self, engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                 rng: SeededRng, budget: SearchBudget, clock=time.perf_counter,
                 reward: Reward = rewards_from_scores) -> None:
        self.engine = engine
        self.view = view
        self.legal = legal_moves
        self.seat = seat
        self.rng = rng
        self.budget = budget
        self.clock = clock
        self.reward = reward
        self.root = _Node()
        self.iterations = 0
        #: the iterations this search runs (``budget.iterations_for`` the game's seats)
        self.target = budget.iterations
        self.backstop_fired = False
        self.cpu_seconds = 0.0
        self.prior: dict[str, float] = {}
        self.score_scale = budget.score_scale
        # the root's moves are the same every iteration: name them once
        self.root_keys = [move_key(move) for move in legal_moves]

    def run(self) -> dict:
        if not self.legal:
            raise ValueError(f"seat {self.seat} has no legal move to choose from")
        if len(self.legal) == 1:
            return self.legal[0]
        cpu_started = time.thread_time()
        deadline = self.clock() + self.budget.seconds
        projected = self.engine.estimate_scores(
            self.engine.sample_state(self.view, self.seat, self.rng))
        self.score_scale = self._score_scale(projected)
        self.target = self.budget.iterations_for(len(projected))
        self.prior = self._root_prior()
        try:
            while self.iterations < self.target:
                self._iterate()
                self.iterations += 1
                if self.iterations < self.target and self.clock() >= deadline:
                    self._backstop()
                    break
        except BaseException as interruption:
            # Stopped from outside in the middle of the search (a worker's time limit is
            # raised inside the running code): the exception carries the best move found
            # so far to whoever catches it (``best_move_so_far``), once there is one.
            if self.iterations:
                setattr(interruption, _BEST_SO_FAR, self.best_move())
            raise
        finally:
            self.cpu_seconds = time.thread_time() - cpu_started
        return self.best_move()

    def _backstop(self) -> None:
        self.backstop_fired = True
        backstop_firings[("ismcts", self.target)] += 1
        logger.warning("search backstop fired: %s of %s iterations in %.1f s (seat %s)",
                       self.iterations, self.target, self.budget.seconds, self.seat)

    def best_move(self) -> dict:
        """The root's most visited legal move so far (ties: the higher mean reward, then
        ``legal_moves`` order; with no visit yet, the first legal move)."""
        edges = self.root.edges.get(self.seat, {})
        best, best_rank = self.legal[0], None
        for move, key in zip(self.legal, self.root_keys, strict=True):
            edge = edges.get(key)
            if edge is None or edge.visits == 0:
                continue
            rank = (edge.visits, edge.reward / edge.visits)
            if best_rank is None or rank > best_rank:
                best, best_rank = move, rank
        return best

    def ranked_moves(self) -> list[dict]:
        """The root's visited legal moves, most visited first (ties: the higher mean
        reward, then ``legal_moves`` order): the search's choice and its runners-up (the
        post-game analysis judges the first few: rules/analysis/decision.py)."""
        edges = self.root.edges.get(self.seat, {})
        ranked = []
        for index, (move, key) in enumerate(zip(self.legal, self.root_keys, strict=True)):
            edge = edges.get(key)
            if edge is not None and edge.visits:
                ranked.append(((-edge.visits, -edge.reward / edge.visits, index), move))
        return [move for _rank, move in sorted(ranked, key=lambda pair: pair[0])]

    def _score_scale(self, projected: list[float]) -> float:
        """Points of margin worth tanh(1) of the score term in this search: the budget's
        least scale plus a tenth of the two best scores a first sample projects."""
        top = sorted((abs(score) for score in projected), reverse=True)[:2]
        return self.budget.score_scale + 0.1 * sum(top)

    def _root_prior(self) -> dict[str, float]:
        """Per root move, the reward its immediate points cost against the best root move
        (``engine.move_value`` from the bot's own view, on the reward's margin scale): 0
        for the best, negative for the rest. It orders the first visits and fades."""
        if not self.budget.prior_weight:
            return {}
        values = dict(zip(self.root_keys,
                          self.engine.move_values(self.view, self.seat, self.legal),
                          strict=True))
        high = max(values.values())
        if high <= min(values.values()):
            return {}
        scale = self.score_scale
        return {key: 0.25 * math.tanh((value - high) / scale) for key, value in values.items()}

    # -- one iteration ------------------------------------------------------------------
    def _iterate(self) -> None:
        engine, observer = self.engine, self.seat
        state = engine.sample_state(self.view, observer, self.rng)
        node = self.root
        path: list[tuple[_Edge, int]] = []  # (edge taken, seat that took it)
        expanded = False
        while not expanded and not engine.is_over(state):
            to_act = engine.to_act(state)
            movers = to_act if len(to_act) > 1 else to_act[:1]
            picks = []
            for mover in movers:  # decoupled: no mover sees another's pick at this node
                edge, move, key, new = self._pick(node, state, mover)
                path.append((edge, mover))
                picks.append((mover, move, key))
                expanded = expanded or new
            seen = []
            for mover, move, key in picks:
                state, _ = engine.apply(state, mover, move)
                seen.append(key if mover == observer
                            else move_key(engine.redact_move(move, mover, observer)))
            child_key = seen[0] if len(seen) == 1 else tuple(seen)
            child = node.children.get(child_key)
            if child is None:
                child = node.children[child_key] = _Node()
            node.visits += 1
            node = child
        rewards = self.reward(self._rollout(state), self.score_scale)
        for edge, mover in path:
            edge.visits += 1
            edge.reward += rewards[mover]

    def _pick(self, node: _Node, state, mover: int):
        """``mover``'s move at ``node`` in this determinization: a new one while progressive
        widening allows (the root's by prior), else UCB1 over the available ones."""
        at_root = node is self.root and mover == self.seat
        edges = node.edges.get(mover)
        if edges is None:
            edges = node.edges[mover] = {}
        if at_root:
            moves, keys = self.legal, self.root_keys
        else:
            moves = self.engine.legal_moves(state, mover)
            if not edges:  # a first visit: every move is untried, so name only the pick
                move = moves[self.rng.randbelow(len(moves))]
                key = move_key(move)
                edge = edges[key] = _Edge()
                return edge, move, key, True
            keys = [move_key(move) for move in moves]
        untried, available = [], []
        for move, key in zip(moves, keys, strict=True):
            edge = edges.get(key)
            if edge is None:
                untried.append((key, move))
            else:
                edge.available += 1
                available.append((edge, move, key))
        prior = self.prior if at_root else None
        if untried and len(available) < self._width(node):
            if prior:  # the most promising untried move first, ties at random
                top = max(prior[key] for key, _ in untried)
                untried = [(key, move) for key, move in untried if prior[key] == top]
            key, move = untried[self.rng.randbelow(len(untried))]
            edge = edges[key] = _Edge()
            return edge, move, key, True
        edge, move, key = self._select(available, prior)
        return edge, move, key, False

    def _root_edge(self, key: str) -> tuple[_Edge, bool]:
        """The searching seat's edge for the root move ``key``, grown if it has none yet,
        and whether it is new (the analysis gives the move played visits of its own:
        rules/analysis/search.py)."""
        edges = self.root.edges.setdefault(self.seat, {})
        edge = edges.get(key)
        if edge is None:
            edge = edges[key] = _Edge()
            return edge, True
        edge.available += 1
        return edge, False

    def _width(self, node: _Node) -> int | float:
        """How many moves a seat may have tried at a node (progressive widening: more as it
        is visited more), so a few iterations over a hundred moves still compare some
        moves well instead of all of them once."""
        if self.budget.widening is None:
            return math.inf
        return math.ceil(self.budget.widening * math.sqrt(node.visits + 1))

    def _select(self, available: list[tuple[_Edge, dict, str]], prior: dict | None):
        """UCB1 over the moves available in this determinization (ISUCB); at the root the
        prior counts as ``prior_weight`` visits at its promised reward (relative to the
        best move's), fading as real visits come in."""
        explore, weight = self.budget.exploration, self.budget.prior_weight
        best, best_score = None, -math.inf
        for edge, move, key in available:
            visits = edge.visits
            if visits == 0:  # grown in an iteration that has not backed up yet
                return edge, move, key
            score = edge.reward / visits + explore * math.sqrt(math.log(edge.available) / visits)
            if prior:
                score += weight * prior[key] / (visits + weight)
            if score > best_score:
                best, best_score = (edge, move, key), score
        return best

    def _rollout(self, state) -> list[float]:
        return play_out(self.engine, state, self.rng, self.budget.rollout_depth)


def play_out(engine: Engine, state, rng: SeededRng, depth: int | None) -> list[float]:
    """A rollout: ``engine.playout_move`` for at most ``depth`` plies (None: to the end),
    then the final scores, or ``engine.estimate_scores`` where the game goes on. Also the
    post-game analysis's judge of a move (rules/analysis/search.py)."""
    plies = 0
    while not engine.is_over(state) and (depth is None or plies < depth):
        mover = engine.to_act(state)[0]
        state, _ = engine.apply(state, mover, engine.playout_move(state, mover, rng))
        plies += 1
    if engine.is_over(state):
        return [float(score) for score in engine.result(state)["scores"]]
    return engine.estimate_scores(state)


def choose_ismcts_move(engine: Engine, view: dict, legal_moves: list[dict], seat: int,
                       rng: SeededRng, budget: SearchBudget) -> dict:
    """The bot function (rules/bots/__init__.py) of a search level: ``budget`` bound by
    ``functools.partial`` in the registry."""
    return IsmctsSearch(engine, view, legal_moves, seat, rng, budget).run()
