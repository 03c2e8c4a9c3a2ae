"""Han engine benchmark: random legal play with full legal_moves enumeration at every step.

Run: .venv/bin/python bench/han_bench.py [games]
Prints, for a 4-player Border Disputes game and a 2-player Ways of Diplomacy game, the median
milliseconds per game, per legal_moves call and per apply (seeded: the same games each run).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import get_engine  # noqa: E402
from rules.rng import SeededRng  # noqa: E402

CASES = [
    ("4-player Border Disputes", 4, {"map": "border-disputes", "variant": False}),
    ("2-player Ways of Diplomacy", 2, {"map": "ways-of-diplomacy", "variant": False}),
]


def play(engine, players: int, options: dict, seed: str):
    legal_times: list[float] = []
    apply_times: list[float] = []
    clock = time.perf_counter
    start = clock()
    state = engine.setup(players, options, seed)
    chooser = SeededRng("bench-chooser-" + seed)
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        t0 = clock()
        moves = engine.legal_moves(state, seat)
        t1 = clock()
        state, _events = engine.apply(state, seat, moves[chooser.randbelow(len(moves))])
        t2 = clock()
        legal_times.append(t1 - t0)
        apply_times.append(t2 - t1)
    engine.result(state)
    return clock() - start, legal_times, apply_times


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    engine = get_engine("han")
    play(engine, 4, CASES[0][2], "warm-up")  # fill the per-map and card caches once
    for label, players, options in CASES:
        game_ms, legal_ms, apply_ms, steps = [], [], [], []
        for g in range(games):
            total, legal, applied = play(engine, players, options, f"bench-{g}")
            game_ms.append(total * 1000)
            legal_ms.extend(t * 1000 for t in legal)
            apply_ms.extend(t * 1000 for t in applied)
            steps.append(len(legal))
        print(
            f"{label}: {games} games, median {statistics.median(game_ms):.1f} ms/game "
            f"(p90 {statistics.quantiles(game_ms, n=10)[-1]:.1f}), "
            f"{statistics.median(steps):.0f} moves/game, "
            f"legal_moves median {statistics.median(legal_ms) * 1000:.0f} us "
            f"(mean {statistics.fmean(legal_ms) * 1000:.0f} us), "
            f"apply median {statistics.median(apply_ms) * 1000:.0f} us "
            f"(mean {statistics.fmean(apply_ms) * 1000:.0f} us)"
        )


if __name__ == "__main__":
    main()
