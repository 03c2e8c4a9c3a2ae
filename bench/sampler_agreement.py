"""How many of ``sample_state``'s deals are worlds the seat could be in (issues 23, 44).

Judged by an independent reader of the public move log (tests/rules/public_log.py: it
replays what the seat saw, ply by ply, and never reads a view's ``knowledge``), not by the
facts the sampler itself reads. Games: ``--games`` per game and player count, half with
random seats and half with greedy ones (tests/rules/audit_games.py), every seat's view at
every ``--every``-th ply, ``--samples`` samples each. Two samplers per view:

- "old": the view without the issue-44 knowledge (Hansa: ``taken_before_face_down``;
  Han: ``reshuffle`` and ``my_hand_at_reshuffle``), which is the sampler as it was;
- "new": the view as it is.

    .venv/bin/python bench/sampler_agreement.py --games 24
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import get_engine  # noqa: E402
from rules.rng import SeededRng  # noqa: E402
from tests.rules.audit_games import walk  # noqa: E402
from tests.rules.public_log import han_consistent, hansa_consistent  # noqa: E402

CHECKS = {"han": han_consistent, "hansa": hansa_consistent}


def old_view(game: str, view: dict) -> dict:
    """The view as the sampler saw it before issue 44."""
    old = dict(view)
    knowledge = dict(view["knowledge"])
    if game == "han":
        knowledge.pop("reshuffle", None)
        knowledge.pop("my_hand_at_reshuffle", None)
    else:
        knowledge["seats"] = [{k: v for k, v in entry.items() if k != "taken_before_face_down"}
                              for entry in knowledge["seats"]]
    old["knowledge"] = knowledge
    return old


def measure(game: str, players: int, games: int, samples: int, every: int) -> dict:
    engine, check = get_engine(game), CHECKS[game]
    counts = {"old": [0, 0], "new": [0, 0]}
    for index in range(games):
        bot = "random" if index % 2 == 0 else "greedy"
        rng = SeededRng(f"agreement:{game}:{players}:{index}")
        for ply, state, logs in walk(f"agreement:{game}:{players}:{bot}:{index}"):
            if ply % every:
                continue
            for seat in range(players):
                view = engine.view(state, seat)
                for label, shown in (("old", old_view(game, view)), ("new", view)):
                    for _ in range(samples):
                        sample = engine.sample_state(shown, seat, rng)
                        counts[label][0] += check(engine, logs[seat], sample) is None
                        counts[label][1] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=24, help="games per player count")
    parser.add_argument("--samples", type=int, default=1, help="samples per seat and ply")
    parser.add_argument("--every", type=int, default=1, help="every n-th ply")
    args = parser.parse_args()
    print("| game | players | samples | consistent, old | consistent, new |")
    print("|---|---|---|---|---|")
    for game, counts in (("han", (2, 3, 4, 5)), ("hansa", (2, 3, 4))):
        totals = {"old": [0, 0], "new": [0, 0]}
        for players in counts:
            result = measure(game, players, args.games, args.samples, args.every)
            for label in totals:
                totals[label][0] += result[label][0]
                totals[label][1] += result[label][1]
            (o_ok, total), (n_ok, _) = result["old"], result["new"]
            print(f"| {game} | {players} | {total} | {o_ok / total:.2%} | {n_ok / total:.2%} |")
        (o_ok, total), (n_ok, _) = totals["old"], totals["new"]
        print(f"| {game} | all | {total} | {o_ok / total:.2%} | {n_ok / total:.2%} |")


if __name__ == "__main__":
    main()
