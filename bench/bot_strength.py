"""How strong each bot level is, and how long it thinks: games in parallel on every core.

For each pairing (a "hero" level against one opponent level in every other seat) it plays
``--games`` games (seats rotated: the hero sits at seat ``i % players`` in game ``i``, each
game on its own seed) and prints, per pairing, the hero's win rate (a shared win counts
1/k) with a 95% Wilson interval and its mean score margin over the best opponent with a
95% normal interval; then, per game and level, the think time per move in CPU time
(median, p99) over every decision of that level that had more than one legal move, and how
often a search's wall-clock backstop fired (it should never: the levels are iteration
budgets, and the backstop is far above their usual time).

    .venv/bin/python bench/bot_strength.py                       # the default pairings
    .venv/bin/python bench/bot_strength.py --games 20 --only han:2
    .venv/bin/python bench/bot_strength.py --games 100 --write-strength \
        --log bench/results/strength-games.jsonl

Bots play exactly as in a match: each gets only its seat's view, its legal moves and a
seeded rng (``rules.bots.bot_rng``), never the state. ``--write-strength`` stores the
figures in rules/bots/strength.json, which the catalogue shows next to each level.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import statistics
import sys
import time
from dataclasses import replace
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.percentiles import percentile  # noqa: E402
from rules import get_engine  # noqa: E402
from rules.bots import bot_rng, get_bot  # noqa: E402
from rules.bots.ismcts import backstop_firings  # noqa: E402
from rules.bots.registry import STRENGTH_FILE  # noqa: E402

#: (game, players, hero, opponent): each level against the one below it, hard against
#: greedy in two- and four-player games, and hard against the old hard (hard_v1)
DEFAULT_PAIRINGS = [
    (game, players, hero, opponent)
    for game in ("han", "hansa")
    for players, hero, opponent in (
        (2, "hard", "greedy"),
        (4, "hard", "greedy"),
        (2, "hard", "hard_v1"),
        (2, "greedy", "random"),
        (2, "easy", "greedy"),
        (2, "medium", "easy"),
        (2, "hard", "medium"),
    )
]


def bot_for(kind: str, lift_backstop: bool):
    """The ``kind`` bot; with ``lift_backstop`` a search level without its wall-clock
    backstop: a level is its iteration budget, and on a shared machine the backstop fires
    from the other jobs' load, not from the level (issue 44's four-player run cut 7% of
    its searches to 45-98% of their iterations at a load of 6 on two cores)."""
    bot = get_bot(kind)
    budget = bot.keywords.get("budget") if isinstance(bot, functools.partial) else None
    if lift_backstop and budget is not None:
        return functools.partial(bot.func, budget=replace(budget, seconds=math.inf))
    return bot


def play_game(task: tuple) -> dict:
    """One game; returns the hero's result and every bot decision's think time."""
    game, players, hero, opponent, index, tag, *lift = task
    engine = get_engine(game)
    hero_seat = index % players
    kinds = [hero if seat == hero_seat else opponent for seat in range(players)]
    bots = {kind: bot_for(kind, bool(lift and lift[0])) for kind in set(kinds)}
    seed = f"strength:{tag}:{game}:{players}:{hero}:{opponent}:{index}"
    state = engine.setup(players, None, seed)
    times: dict[str, list[float]] = {}
    fired_before = sum(backstop_firings.values())
    ply = 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        view = engine.view(state, seat)
        moves = engine.legal_moves(state, seat)
        rng = bot_rng(seed, ply, seat)
        started = time.process_time()  # CPU time: the same on a busy and an idle machine
        move = bots[kinds[seat]](engine, view, moves, seat, rng)
        if len(moves) > 1:
            times.setdefault(kinds[seat], []).append(time.process_time() - started)
        state, _ = engine.apply(state, seat, move)
        ply += 1
    result = engine.result(state)
    scores = result["scores"]
    winners = result["winners"]
    best_other = max(score for seat, score in enumerate(scores) if seat != hero_seat)
    return {
        "pairing": (game, players, hero, opponent),
        "index": index,  # with the tag, the game's seed: runs on the same seeds pair up
        "win": (1.0 / len(winners)) if hero_seat in winners else 0.0,
        "margin": scores[hero_seat] - best_other,
        "times": times,
        "backstop_firings": sum(backstop_firings.values()) - fired_before,
    }


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: list[float], z: float = 1.96) -> tuple[float, float, float]:
    mean = statistics.fmean(values)
    half = z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
    return mean, mean - half, mean + half




def summarise(outcomes: list[dict]) -> dict:
    pairings: dict[tuple, list[dict]] = {}
    times: dict[tuple[str, str], list[float]] = {}
    for outcome in outcomes:
        pairings.setdefault(tuple(outcome["pairing"]), []).append(outcome)
        for kind, spent in outcome["times"].items():
            times.setdefault((outcome["pairing"][0], kind), []).extend(spent)
    rows = []
    for (game, players, hero, opponent), games in pairings.items():
        wins = sum(g["win"] for g in games)
        low, high = wilson(wins, len(games))
        mean, m_low, m_high = mean_ci([g["margin"] for g in games])
        rows.append({
            "game": game, "players": players, "hero": hero, "opponent": opponent,
            "games": len(games), "win_rate": wins / len(games), "win_ci": [low, high],
            "margin": mean, "margin_ci": [m_low, m_high],
        })
    think = [
        {"game": game, "level": kind, "decisions": len(spent),
         "median_s": statistics.median(spent), "p99_s": percentile(spent, 0.99)}
        for (game, kind), spent in sorted(times.items())
    ]
    fired = sum(outcome.get("backstop_firings", 0) for outcome in outcomes)
    return {"pairings": rows, "think_time": think, "backstop_firings": fired}


def table(summary: dict) -> str:
    lines = [
        "| game | players | level | against | games | win rate (95% CI) | margin (95% CI) |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in summary["pairings"]:
        lines.append(
            f"| {row['game']} | {row['players']} | {row['hero']} | {row['opponent']} "
            f"| {row['games']} | {row['win_rate']:.0%} ({row['win_ci'][0]:.0%}-"
            f"{row['win_ci'][1]:.0%}) | {row['margin']:+.1f} ({row['margin_ci'][0]:+.1f} to "
            f"{row['margin_ci'][1]:+.1f}) |"
        )
    lines += ["", "| game | level | decisions | think median (CPU) | think p99 (CPU) |",
              "|---|---|---|---|---|"]
    for entry in summary["think_time"]:
        lines.append(f"| {entry['game']} | {entry['level']} | {entry['decisions']} "
                     f"| {entry['median_s'] * 1000:.0f} ms | {entry['p99_s'] * 1000:.0f} ms |")
    lines += ["", f"search backstop firings: {summary.get('backstop_firings', 0)}"]
    return "\n".join(lines)


def strength_entries(summary: dict) -> dict:
    """Per level, per game: the measured pairings and think times, for the catalogue."""
    out: dict[str, dict] = {}
    for row in summary["pairings"]:
        entry = out.setdefault(row["hero"], {}).setdefault(row["game"], {"against": []})
        entry["against"].append({
            "opponent": row["opponent"], "players": row["players"], "games": row["games"],
            "win_rate": round(row["win_rate"], 3),
            "win_ci": [round(x, 3) for x in row["win_ci"]],
            "margin": round(row["margin"], 2),
        })
    for entry in summary["think_time"]:
        out.setdefault(entry["level"], {}).setdefault(entry["game"], {})["think_time_s"] = {
            "median": round(entry["median_s"], 3), "p99": round(entry["p99_s"], 3),
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games per pairing")
    parser.add_argument("--only", action="append", default=[],
                        help="game:players (e.g. han:2); repeatable; default all")
    parser.add_argument("--pairing", action="append", default=[],
                        help="game:players:hero:opponent; repeatable; replaces the defaults")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--tag", default="1", help="seed tag: another tag, other games")
    parser.add_argument("--out", help="write the summary as JSON here")
    parser.add_argument("--log", help="append each finished game as a JSON line here "
                        "(a long run can be summarised while it goes: --from-log)")
    parser.add_argument("--from-log", help="summarise the games of this --log file; play none")
    parser.add_argument("--no-backstop", action="store_true",
                        help="search levels without their wall-clock backstop (a busy "
                        "shared machine fires it; the level is its iterations)")
    parser.add_argument("--write-strength", action="store_true",
                        help=f"store the figures in {STRENGTH_FILE.name} for the catalogue")
    args = parser.parse_args()

    if args.from_log:
        lines = Path(args.from_log).read_text(encoding="utf-8").splitlines()
        summary = summarise([json.loads(line) for line in lines if line.strip()])
        print(table(summary))
        print(f"\n{len(lines)} games from {args.from_log}")
        _write(args, summary)
        return

    pairings = DEFAULT_PAIRINGS
    if args.pairing:
        pairings = []
        for text in args.pairing:
            game, players, hero, opponent = text.split(":")
            pairings.append((game, int(players), hero, opponent))
    if args.only:
        wanted = {tuple(text.split(":")) for text in args.only}
        pairings = [p for p in pairings if (p[0], str(p[1])) in wanted]
    tasks = [
        (game, players, hero, opponent, index, args.tag, args.no_backstop)
        for index in range(args.games)
        for game, players, hero, opponent in pairings
    ]
    started = time.perf_counter()
    outcomes = []
    log = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
    with Pool(args.workers) as pool:
        for done, outcome in enumerate(pool.imap_unordered(play_game, tasks), 1):
            outcomes.append(outcome)
            if log:
                log.write(json.dumps(outcome) + "\n")
                log.flush()
            if done % 10 == 0 or done == len(tasks):
                print(f"{done}/{len(tasks)} games, {time.perf_counter() - started:.0f} s",
                      file=sys.stderr, flush=True)
    summary = summarise(outcomes)
    summary["workers"] = args.workers
    summary["wall_seconds"] = round(time.perf_counter() - started, 1)
    print(table(summary))
    print(f"\n{len(tasks)} games on {args.workers} worker(s) in {summary['wall_seconds']} s")
    _write(args, summary)


def _write(args, summary: dict) -> None:
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    if args.write_strength:
        STRENGTH_FILE.write_text(json.dumps(strength_entries(summary), indent=1) + "\n",
                                 encoding="utf-8")


if __name__ == "__main__":
    main()
