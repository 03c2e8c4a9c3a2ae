"""Can the post-game analysis be trusted? Two checks on bot-only games (docs/analysis.md).

1. **Levels** (``--level-games`` two-player games per game): every pair of the five bot
   kinds plays in turn (seats rotated), each game is analysed, and the mean loss per
   decision (decisions with a choice) of each kind is printed with a 95% interval. The
   analysis is trusted when it orders the kinds as their strength does:
   random > greedy > easy > medium > hard.
2. **Equals** (``--equal-games`` two-player games per game, medium against medium, each
   seat with its own random numbers): the share of decided games with different
   accuracies won by the seat the analysis rates more accurate, with a Wilson 95%
   interval. Trusted at 65% or more; a test between unequal bots would pass by strength
   alone, which is why both seats are equals. For comparison it also prints the share
   won by the seat with fewer points lost per decision (what accuracy read before it
   read the result lost), and the share judge 5's rule would have given on the same
   decisions (``accuracy_judge5``: no second search, its result losses follow from the
   same candidates).

Games and analyses run exactly as in the service: bots get their seat's view only
(``rules.bots.bot_rng``), the analysis gets each decision's view only
(``rules.analysis``), seeded from the game's seed, the ply and the seat.

    .venv/bin/python bench/analysis_validity.py                      # full size (slow)
    nice -n 10 .venv/bin/python bench/analysis_validity.py --level-games 0 \
        --equal-games 100 --workers 1 --log equals.jsonl            # the equals check
    nice -n 10 .venv/bin/python bench/analysis_validity.py --only han --first 30 \
        --level-games 0 --equal-games 70 --log equals.jsonl          # add games 30-99
    .venv/bin/python bench/analysis_validity.py --report equals.jsonl
    .venv/bin/python bench/analysis_validity.py --cost          # one 2p Han + one 4p Hansa

``--reward bots`` judges with the search rewarded by the bots' reward instead of winning
alone: judge 6's figures (tests/rules/test_judge_version.py), to compare the judges on the
same games.

``--cost`` analyses a two-player Han and a four-player Hansa game of hard bots and prints
the wall time and CPU per decision (the one-worker figure of docs/analysis.md).
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot_strength import bot_for, mean_ci, wilson  # noqa: E402 - bench/ is the script folder

from rules import get_engine  # noqa: E402
from rules.analysis import (  # noqa: E402
    JUDGE_VERSION,
    AnalysisBudget,
    analyse_decision,
    decision_key,
    iter_decisions,
    match_summary,
    thresholds_for,
)
from rules.analysis.search import JUDGE_REWARD  # noqa: E402
from rules.bots import bot_rng  # noqa: E402
from rules.bots.rewards import rewards_from_scores  # noqa: E402

LEVELS = ("random", "greedy", "easy", "medium", "hard")
#: what the judge's search plays for: today's judge's, or the bots' (judge 6)
REWARDS = {"judge": JUDGE_REWARD, "bots": rewards_from_scores}
PAIRS = list(itertools.combinations(LEVELS, 2))


def play(game: str, kinds: list[str], seed: str) -> tuple[list, dict]:
    """A bot-only game: its log ``[(seat, move)]`` and its result. The search levels play
    without their wall-clock backstop (``bot_strength.bot_for``): a level is its iteration
    budget, so a busy machine, or a run paused for minutes (SIGSTOP), plays the same moves;
    nothing here reads the clock but the CPU figures."""
    engine = get_engine(game)
    state = engine.setup(len(kinds), None, seed)
    bots = {kind: bot_for(kind, lift_backstop=True) for kind in set(kinds)}
    log, ply = [], 0
    while not engine.is_over(state):
        seat = engine.to_act(state)[0]
        move = bots[kinds[seat]](engine, engine.view(state, seat),
                                 engine.legal_moves(state, seat), seat,
                                 bot_rng(seed, ply, seat))
        state, _ = engine.apply(state, seat, move)
        log.append((seat, move))
        ply += 1
    return log, engine.result(state)


def judge5_result_loss(row: dict) -> float:
    """The result loss judge 5 gave the same decision (same search, worlds, candidates):
    its rule (issue 41) zeroed it whenever the move played was shown as the best, which
    judge 6 does only for the points; otherwise both read it against the best result."""
    return 0.0 if row["best"] == row["played"] else row["result_loss"]


def analyse(game: str, players: int, seed: str, log: list, budget: AnalysisBudget,
            reward: str = "judge") -> dict:
    """Every decision of the game analysed; per seat its summary (and the one judge 5's rule
    would have given, ``seats_judge5``), and the CPU spent."""
    engine = get_engine(game)
    thresholds = thresholds_for(game)
    by_seat: dict[int, list[dict]] = {seat: [] for seat in range(players)}
    cpu = []
    for decision in iter_decisions(engine, players, None, seed, log):
        started = time.process_time()
        judged = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                                  decision.played, decision_key(seed, decision.ply,
                                                                decision.seat), budget,
                                  REWARDS[reward])
        cpu.append(time.process_time() - started)
        by_seat[decision.seat].append({"ply": decision.ply, **judged.to_json()})
    rows = [{"seat": seat, **row} for seat, seat_rows in by_seat.items() for row in seat_rows]
    judge5_rows = [{**row, "result_loss": judge5_result_loss(row)} for row in rows]
    return {"seats": match_summary(rows, players, thresholds),
            "seats_judge5": match_summary(judge5_rows, players, thresholds),
            "losses": {seat: [r["loss"] for r in rows if r["choices"] > 1]
                       for seat, rows in by_seat.items()},
            "result_losses": {seat: [r["result_loss"] for r in rows if r["choices"] > 1]
                              for seat, rows in by_seat.items()},
            "cpu": cpu}


def level_game(task: tuple) -> dict:
    game, index, budget, reward = task
    pair = PAIRS[index % len(PAIRS)]
    kinds = list(pair) if (index // len(PAIRS)) % 2 == 0 else list(reversed(pair))
    seed = f"analysis-levels:{game}:{index}"
    log, _result = play(game, kinds, seed)
    analysed = analyse(game, 2, seed, log, budget, reward)
    return {"check": "levels", "reward": reward, "game": game, "kinds": kinds,
            "losses": {kinds[seat]: losses for seat, losses in analysed["losses"].items()},
            "result_losses": {kinds[seat]: losses
                              for seat, losses in analysed["result_losses"].items()},
            "cpu": analysed["cpu"]}


def equal_game(task: tuple) -> dict:
    game, index, budget, reward = task
    seed = f"analysis-equals:{game}:{index}"
    log, result = play(game, ["medium", "medium"], seed)
    analysed = analyse(game, 2, seed, log, budget, reward)
    return {"check": "equals", "game": game, "index": index, "judge_version": JUDGE_VERSION,
            "reward": reward,
            "winners": result["winners"],
            "scores": result["scores"],
            "accuracy": [s["accuracy"] for s in analysed["seats"]],
            "accuracy_judge5": [s["accuracy"] for s in analysed["seats_judge5"]],
            "mean_loss": [s["mean_loss"] for s in analysed["seats"]],
            "mean_result_loss": [s["mean_result_loss"] for s in analysed["seats"]],
            "cpu": analysed["cpu"]}


def _won_by_the_lower(equals: list[dict], field: str, lower_is_better: bool) -> str:
    """How often the seat rated better by ``field`` won, among decided games whose two
    seats are rated differently, with a Wilson 95% interval."""
    decided = [o for o in equals if len(o["winners"]) == 1 and o.get(field)
               and None not in o[field] and o[field][0] != o[field][1]]
    pick = min if lower_is_better else max
    wins = sum(1 for o in decided if o[field][o["winners"][0]] == pick(o[field]))
    low, high = wilson(wins, len(decided))
    share = wins / len(decided) if decided else 0.0
    return f"{share:.0%} of {len(decided)} [{low:.0%}, {high:.0%}]"


def report(outcomes: list[dict]) -> str:
    lines = []
    for game in sorted({o["game"] for o in outcomes}):
        levels = [o for o in outcomes if o["game"] == game and o["check"] == "levels"]
        if levels:
            lines.append(f"{game}: loss per decision, {len(levels)} games: points "
                         f"[95%], result (the search's reward) [95%]")
            point_means, result_means = [], []
            for kind in LEVELS:
                losses = [x for o in levels for x in o["losses"].get(kind, [])]
                results = [x for o in levels for x in o.get("result_losses", {}).get(kind, [])]
                if len(losses) > 1:
                    mean, low, high = mean_ci(losses)
                    point_means.append(mean)
                    line = f"  {kind:7s} {mean:6.2f}  [{low:5.2f}, {high:5.2f}]"
                    if len(results) > 1:
                        r_mean, r_low, r_high = mean_ci(results)
                        result_means.append(r_mean)
                        line += f"   {r_mean:.4f} [{r_low:.4f}, {r_high:.4f}]"
                    lines.append(f"{line}  ({len(losses)} decisions)")
            for name, means in (("points", point_means), ("result", result_means)):
                ordered = (len(means) == len(LEVELS)
                           and all(a > b for a, b in zip(means, means[1:], strict=False)))
                lines.append(f"  {name} lost ordered random > greedy > easy > medium > hard: "
                             f"{ordered}")
        equals = [o for o in outcomes if o["game"] == game and o["check"] == "equals"]
        if equals:
            lines.append(f"{game}: medium vs medium, {len(equals)} games: the more accurate "
                         f"seat won {_won_by_the_lower(equals, 'accuracy', False)}; the "
                         f"seat losing fewer points per decision won "
                         f"{_won_by_the_lower(equals, 'mean_loss', True)}")
            if any("accuracy_judge5" in o for o in equals):
                lines.append(f"{game}: the same decisions with judge 5's rule (no result lost "
                             f"when the move played is shown as the best): the more accurate "
                             f"seat won {_won_by_the_lower(equals, 'accuracy_judge5', False)}")
        cpu = [x for o in outcomes if o["game"] == game for x in o.get("cpu", [])]
        if cpu:
            lines.append(f"{game}: CPU per decision median {statistics.median(cpu) * 1000:.0f} "
                         f"ms, max {max(cpu) * 1000:.0f} ms ({len(cpu)} decisions)")
    return "\n".join(lines)


def cost(budget: AnalysisBudget) -> None:
    for game, players in (("han", 2), ("hansa", 4)):
        seed = f"analysis-cost:{game}:{players}"
        log, _ = play(game, ["hard"] * players, seed)
        started, cpu_started = time.perf_counter(), time.process_time()
        analysed = analyse(game, players, seed, log, budget)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu_started
        per = analysed["cpu"]
        print(f"{game} {players}p: {len(per)} decisions, wall {wall:.1f} s, CPU {cpu:.1f} s; "
              f"CPU per decision median {statistics.median(per) * 1000:.0f} ms, "
              f"max {max(per) * 1000:.0f} ms; accuracy "
              f"{[s['accuracy'] for s in analysed['seats']]}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level-games", type=int, default=60)
    parser.add_argument("--equal-games", type=int, default=100)
    parser.add_argument("--only", choices=("han", "hansa"))
    parser.add_argument("--first", type=int, default=0,
                        help="index of the first game (seeds are per index: runs add up)")
    parser.add_argument("--iterations", type=int, default=AnalysisBudget().iterations)
    parser.add_argument("--samples", type=int, default=AnalysisBudget().samples)
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument("--log", type=Path, help="append each game's outcome (JSON lines)")
    parser.add_argument("--reward", choices=sorted(REWARDS), default="judge",
                        help="what the judge's search plays for (bots: judge 6's figures)")
    parser.add_argument("--cost", action="store_true", help="only the one-worker cost figures")
    parser.add_argument("--report", type=Path, help="only print the figures of a --log file")
    args = parser.parse_args()
    budget = AnalysisBudget(iterations=args.iterations, samples=args.samples)
    if args.cost:
        cost(budget)
        return
    if args.report:  # the figures of an earlier run's log (or of a run cut short)
        lines = args.report.read_text(encoding="utf-8").splitlines()
        print(report([json.loads(line) for line in lines if line.strip()]))
        return
    games = [args.only] if args.only else ["han", "hansa"]
    # the games alternate, so a run cut short still has figures for both
    first = args.first
    tasks = [(level_game, (g, i, budget, args.reward))
             for i in range(first, first + args.level_games) for g in games]
    tasks += [(equal_game, (g, i, budget, args.reward))
              for i in range(first, first + args.equal_games) for g in games]
    outcomes = []
    started = time.perf_counter()
    with Pool(args.workers) as pool:
        for outcome in pool.imap_unordered(_run, tasks):
            outcomes.append(outcome)
            if args.log:
                with args.log.open("a", encoding="utf-8") as out:
                    out.write(json.dumps(outcome) + "\n")
    print(f"budget {budget.to_json()}, {len(outcomes)} games in "
          f"{time.perf_counter() - started:.0f} s")
    print(report(outcomes))


def _run(task: tuple) -> dict:
    function, arguments = task
    return function(arguments)


if __name__ == "__main__":
    main()
