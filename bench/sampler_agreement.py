"""How many of ``sample_state``'s deals agree with the public history (issue 23).

Random positions of both games (random play from seeded set-ups, every seat's view at
every ply); for each, samples are drawn from the seat's view as it is now ("after") and
from the view without its ``knowledge`` (the sampler as it was: "before"), and a sample
agrees when it puts every card the history made public where the history says it is:

- Han: each other hand holds the cards its seat took from the display and has not played
  since; after the reshuffle the pile holds only cards of the old discard pile not laid
  out since nor drawn by the seat itself;
- Hansa: each other seat's harbour cards are in its hand (until it played a card face
  down, then in its hand or face-down pile); the seat's own returned starting cards are in
  the normal deck.

The facts are the engine's ``knowledge`` (tests/rules/test_sampler_public_history.py
checks them against the moves themselves).

    .venv/bin/python bench/sampler_agreement.py --games 6 --samples 3
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules import get_engine  # noqa: E402
from rules.rng import SeededRng  # noqa: E402


def han_agrees(state, sample, seat: int) -> bool:
    for s in range(state.players):
        if s != seat and Counter(state.known[s]) - Counter(sample.hands[s]):
            return False
    if state.pile_known is not None:
        allowed = Counter(state.pile_known) - Counter(state.pile_draws[seat])
        if Counter(sample.pile) - allowed:
            return False
    return True


def hansa_agrees(state, sample, seat: int) -> bool:
    for s in range(state.players):
        if s == seat:
            continue
        if not set(state.known_in_hand[s]) <= set(sample.hands[s]):
            return False
        if not set(state.known_hidden[s]) <= set(sample.hands[s]) | set(sample.face_down[s]):
            return False
    returned = [cid for cid in state.returned[seat] if cid in state.normal_deck]
    return set(returned) <= set(sample.normal_deck)


def measure(game: str, players: int, games: int, samples: int) -> dict[str, tuple[int, int]]:
    engine = get_engine(game)
    agrees = han_agrees if game == "han" else hansa_agrees
    counts = {"before": [0, 0], "after": [0, 0]}
    for index in range(games):
        state = engine.setup(players, None, f"agreement:{game}:{players}:{index}")
        rng = SeededRng(f"agreement:{index}")
        while not engine.is_over(state):
            for seat in range(players):
                view = engine.view(state, seat)
                old_view = {key: value for key, value in view.items() if key != "knowledge"}
                for label, shown in (("before", old_view), ("after", view)):
                    for _ in range(samples):
                        sample = engine.sample_state(shown, seat, rng)
                        counts[label][0] += agrees(state, sample, seat)
                        counts[label][1] += 1
            mover = engine.to_act(state)[0]
            moves = engine.legal_moves(state, mover)
            state, _ = engine.apply(state, mover, moves[rng.randbelow(len(moves))])
    return {label: (agreed, total) for label, (agreed, total) in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="random games per player count")
    parser.add_argument("--samples", type=int, default=3, help="samples per seat and ply")
    args = parser.parse_args()
    print("| game | players | samples | agree before | agree after |")
    print("|---|---|---|---|---|")
    for game, counts in (("han", (2, 3, 4, 5)), ("hansa", (2, 3, 4))):
        for players in counts:
            result = measure(game, players, args.games, args.samples)
            (b_ok, total), (a_ok, _) = result["before"], result["after"]
            print(f"| {game} | {players} | {total} | {b_ok / total:.1%} | {a_ok / total:.1%} |")


if __name__ == "__main__":
    main()
