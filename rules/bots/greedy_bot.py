"""The greedy bot: the move with the most immediate points (``engine.move_values``, judged
from the seat's own view), ties broken by the seeded RNG so it does not always play the
first of equals."""

from __future__ import annotations

from rules.engine import Engine
from rules.rng import SeededRng


def choose_greedy_move(
    engine: Engine, view: dict, legal_moves: list[dict], seat: int, rng: SeededRng
) -> dict:
    if not legal_moves:
        raise ValueError(f"seat {seat} has no legal move to choose from")
    best_value = None
    best_moves: list[dict] = []
    for move, value in zip(legal_moves, engine.move_values(view, seat, legal_moves),
                           strict=True):
        if best_value is None or value > best_value:
            best_value, best_moves = value, [move]
        elif value == best_value:
            best_moves.append(move)
    return best_moves[rng.randbelow(len(best_moves))]
