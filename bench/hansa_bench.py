"""Speed of the Queen of Hansa engine: random 4-player games with full legal-move
enumeration at every step.

    .venv/bin/python bench/hansa_bench.py [--games 50] [--players 4]

Prints the median milliseconds per game, per ``legal_moves`` call and per ``apply``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import get_engine  # noqa: E402
from rules.rng import SeededRng  # noqa: E402


def play_one(engine, players: int, seed: str) -> tuple[float, list[float], list[float], int]:
    """One random game; returns (game ms, legal_moves call ms, apply call ms, moves)."""
    rng = SeededRng(f"bench-play:{seed}")
    legal_times: list[float] = []
    apply_times: list[float] = []
    started = time.perf_counter()
    state = engine.setup(players, {}, seed)
    moves = 0
    while not engine.is_over(state):
        seats = engine.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        t0 = time.perf_counter()
        options = engine.legal_moves(state, seat)
        t1 = time.perf_counter()
        state, _events = engine.apply(state, seat, options[rng.randbelow(len(options))])
        t2 = time.perf_counter()
        legal_times.append((t1 - t0) * 1000)
        apply_times.append((t2 - t1) * 1000)
        moves += 1
    engine.result(state)
    return (time.perf_counter() - started) * 1000, legal_times, apply_times, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    args = parser.parse_args()

    engine = get_engine("hansa")
    game_times: list[float] = []
    legal_times: list[float] = []
    apply_times: list[float] = []
    move_counts: list[int] = []
    for number in range(args.games):
        game_ms, legal_ms, apply_ms, moves = play_one(engine, args.players, f"bench-{number}")
        game_times.append(game_ms)
        legal_times.extend(legal_ms)
        apply_times.extend(apply_ms)
        move_counts.append(moves)

    print(f"The Queen of Hansa: {args.games} random {args.players}-player games, "
          f"full legal_moves enumeration at every step")
    print(f"  moves per game        median {statistics.median(move_counts):.0f}")
    print(f"  ms per game           median {statistics.median(game_times):.2f}"
          f"   (max {max(game_times):.2f})")
    print(f"  ms per legal_moves    median {statistics.median(legal_times):.4f}"
          f"   ({len(legal_times)} calls)")
    print(f"  ms per apply          median {statistics.median(apply_times):.4f}"
          f"   ({len(apply_times)} calls)")


if __name__ == "__main__":
    main()
