"""Instruments for the never-peeks tests of the analysis: which states and views reach the
judge (issue 44).

``WatchedEngine`` wraps a real engine and remembers every state the replay builds (the
result of ``setup`` and of each ``apply`` on such a state: the true states of the match).
``JudgeWatch`` wraps a judge (``analyse_decision`` or a stand-in with its signature):
while it runs, any engine call handed a true state is a violation, and the view it was
handed must be exactly the mover's own view at that ply, as the test's own replay of the
seed and the log gives it (``expected_views``), for the seat that moved.
"""

from __future__ import annotations

from rules import get_engine


class WatchedEngine:
    def __init__(self, engine) -> None:
        self._engine = engine
        self._true: dict[int, object] = {}  # id -> state (kept alive so ids stay unique)
        self.judging = False
        self.violations: list[str] = []

    def _is_true(self, value) -> bool:
        return id(value) in self._true and self._true[id(value)] is value

    def setup(self, *args, **kwargs):
        state = self._engine.setup(*args, **kwargs)
        if not self.judging:
            self._true[id(state)] = state
        return state

    def apply(self, state, *args, **kwargs):
        self._check("apply", state)
        new, events = self._engine.apply(state, *args, **kwargs)
        if self._is_true(state) and not self.judging:
            self._true[id(new)] = new
        return new, events

    def _check(self, name: str, *args) -> None:
        if self.judging and any(self._is_true(arg) for arg in args):
            self.violations.append(f"the judge called engine.{name} with the match's state")

    def __getattr__(self, name: str):
        attribute = getattr(self._engine, name)
        if not callable(attribute):
            return attribute

        def watched(*args, **kwargs):
            self._check(name, *args, *kwargs.values())
            return attribute(*args, **kwargs)

        return watched


def expected_views(game: str, players: int, options, seed: str, log) -> list[tuple[int, dict]]:
    """(mover, the mover's view) at each ply, replayed here apart from iter_decisions."""
    engine = get_engine(game)
    state = engine.setup(players, options, seed)
    seen = []
    for seat, move in log:
        seen.append((seat, engine.view(state, seat)))
        state, _ = engine.apply(state, seat, move)
    return seen


class JudgeWatch:
    def __init__(self, engine: WatchedEngine, judge, expected: list[tuple[int, dict]]) -> None:
        self.engine = engine
        self.judge = judge
        self.expected = expected
        self.calls = 0

    def __call__(self, engine, view, legal_moves, seat, played, key, budget):
        if engine is not self.engine:
            self.engine.violations.append("the judge got another engine than the watched one")
        ply = int(key.rsplit(":", 2)[1])  # decision_key: analysis:<seed>:<ply>:<seat>
        mover, own_view = self.expected[ply]
        if seat != mover:
            self.engine.violations.append(f"ply {ply}: judged seat {seat}, moved {mover}")
        if view != own_view:
            self.engine.violations.append(f"ply {ply}: the judge got a view not the mover's")
        for value in (legal_moves, played, key, budget):
            self.engine._check("judge argument", value)
        self.calls += 1
        self.engine.judging = True
        try:
            return self.judge(engine, view, legal_moves, seat, played, key, budget)
        finally:
            self.engine.judging = False


def peeking_judge(real_judge):
    """A judge that finds the replay's state (the suspended ``iter_decisions`` generator
    holds it) and looks at it before judging as usual: what the tests must catch."""
    import gc
    import types

    def judge(engine, view, legal_moves, seat, played, key, budget):
        for obj in gc.get_objects():
            if type(obj) is not types.GeneratorType:  # type(): lazy proxies stay asleep
                continue
            frame = obj.gi_frame
            if obj.gi_code.co_name == "iter_decisions" and frame is not None:
                state = frame.f_locals.get("state")
                if state is not None:
                    engine.estimate_scores(state)  # e.g. to rank the moves by the truth
        return real_judge(engine, view, legal_moves, seat, played, key, budget)

    return judge
