"""The random-legal bot: any legal move, uniformly, from the seeded RNG."""

from __future__ import annotations

from rules.engine import Engine
from rules.rng import SeededRng


def choose_random_move(
    engine: Engine, view: dict, legal_moves: list[dict], seat: int, rng: SeededRng
) -> dict:
    if not legal_moves:
        raise ValueError(f"seat {seat} has no legal move to choose from")
    return legal_moves[rng.randbelow(len(legal_moves))]
