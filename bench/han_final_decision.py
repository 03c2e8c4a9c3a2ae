"""How often a search level finds a best move on Han's final decision (issue 23).

The last seat's last turn of the final round needs no hidden information: whatever it
plays, the game ends (no drawing in the final round), so every legal move's outcome is
exact. The positions come from games between greedy bots (one per seed, two to five
players, both maps); for each, every legal move is played out and a move counts as best
when no other beats it on (opponents beaten, margin over the best opponent), the order the
bots' reward ranks outcomes by. A level's choice that is not best is reported with the
points of margin it gave away.

    .venv/bin/python bench/han_final_decision.py --positions 200 --levels hard,hard_v1
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_strength import wilson  # noqa: E402

from rules import get_engine  # noqa: E402
from rules.bots import bot_rng, get_bot  # noqa: E402


def final_position(index: int):
    """The state before the last move of a greedy game (None if it ended another way)."""
    engine = get_engine("han")
    players = 2 + index % 4
    state = engine.setup(players, None, f"final-decision:{index}")
    greedy = get_bot("greedy")
    ply = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        moves = engine.legal_moves(state, seat)
        if state.final_round and state.turn == state.last_seat and state.phase == 0:
            return engine, state, seat, moves
        move = greedy(engine, engine.view(state, seat), moves, seat, bot_rng("fd", ply, seat))
        state, _ = engine.apply(state, seat, move)
        ply += 1
    return None


def outcome(scores: list[int], seat: int) -> tuple[float, int]:
    others = [score for other, score in enumerate(scores) if other != seat]
    beaten = sum(1.0 if scores[seat] > s else 0.5 if scores[seat] == s else 0.0 for s in others)
    return beaten, scores[seat] - max(others)


def judge(task: tuple) -> dict | None:
    index, levels = task
    found = final_position(index)
    if found is None:
        return None
    engine, state, seat, moves = found
    results = {}
    for move in moves:
        after, _ = engine.apply(state, seat, move)
        results[repr(move)] = outcome(engine.result(after)["scores"], seat)
    best = max(results.values())
    row = {"index": index, "players": state.players, "moves": len(moves), "levels": {}}
    view = engine.view(state, seat)
    for level in levels:
        started = time.process_time()
        move = get_bot(level)(engine, view, moves, seat, bot_rng("fd-search", index, seat))
        got = results[repr(move)]
        row["levels"][level] = {"best": got == best, "lost": best[1] - got[1],
                                "cpu_s": time.process_time() - started}
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--levels", default="hard,hard_v1")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    levels = args.levels.split(",")
    rows = []
    index = 0
    with Pool(args.workers) as pool:
        while len(rows) < args.positions:
            batch = [(i, levels) for i in range(index, index + args.positions - len(rows))]
            index += len(batch)
            rows += [row for row in pool.map(judge, batch) if row is not None]
    print("| level | positions | best move (95% CI) | points given away when not best |")
    print("|---|---|---|---|")
    for level in levels:
        best = sum(row["levels"][level]["best"] for row in rows)
        lost = [row["levels"][level]["lost"] for row in rows if not row["levels"][level]["best"]]
        low, high = wilson(best, len(rows))
        given = f"{len(lost)}: {min(lost)}-{max(lost)} (mean {statistics.fmean(lost):.1f})" \
            if lost else "none"
        print(f"| {level} | {len(rows)} | {best / len(rows):.1%} ({low:.1%}-{high:.1%}) "
              f"| {given} |")


if __name__ == "__main__":
    main()
