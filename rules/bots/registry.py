"""Bot kinds by name, and the one way to ask a bot for a move."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

from rules.bots.greedy_bot import choose_greedy_move
from rules.bots.ismcts import SearchBudget, choose_ismcts_move
from rules.bots.random_bot import choose_random_move
from rules.engine import Engine
from rules.rng import SeededRng

BotFunction = Callable[[Engine, dict, list, int, SeededRng], dict]

#: the search levels: IS-MCTS (rules/bots/ismcts.py) differing only in budget. Iterations
#: make a level's play reproducible; the wall-clock cap only bounds a slow machine's wait.
SEARCH_LEVELS: dict[str, SearchBudget] = {
    "easy": SearchBudget(iterations=25, seconds=0.3),
    "medium": SearchBudget(iterations=100, seconds=0.8),
    "hard": SearchBudget(iterations=300, seconds=1.5),
}

_BOTS: dict[str, BotFunction] = {
    "random": choose_random_move,
    "greedy": choose_greedy_move,
    **{
        level: partial(choose_ismcts_move, budget=budget)
        for level, budget in SEARCH_LEVELS.items()
    },
}

#: the bot kinds a seat may be given, in catalogue order (weakest first)
BOT_KINDS: tuple[str, ...] = tuple(_BOTS)

BOT_DESCRIPTIONS: dict[str, str] = {
    "random": "Plays any legal move, uniformly at random.",
    "greedy": "Plays the move worth the most points at once, judged from its own view.",
    "easy": "Searches a little: information-set Monte Carlo tree search, "
            f"{SEARCH_LEVELS['easy'].iterations} sampled playouts per move.",
    "medium": "Information-set Monte Carlo tree search, "
              f"{SEARCH_LEVELS['medium'].iterations} sampled playouts per move.",
    "hard": "Information-set Monte Carlo tree search, "
            f"{SEARCH_LEVELS['hard'].iterations} sampled playouts per move "
            f"(at most {SEARCH_LEVELS['hard'].seconds:g} s).",
}

#: measured by bench/bot_strength.py --write-strength (see the README's table)
STRENGTH_FILE = Path(__file__).resolve().parent / "strength.json"


@cache
def _measured_strength() -> dict:
    """The figures in STRENGTH_FILE, read once per process (the catalogue asks per game and
    per request; the file changes only with a release)."""
    try:
        return json.loads(STRENGTH_FILE.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}


def bot_levels() -> list[dict]:
    """The catalogue's list of bot kinds: ``{"kind", "description", "search", "strength"}``,
    ``strength`` per game the figures last measured (``{}`` where none were)."""
    measured = _measured_strength()
    levels = []
    for kind in BOT_KINDS:
        budget = SEARCH_LEVELS.get(kind)
        levels.append({
            "kind": kind,
            "description": BOT_DESCRIPTIONS[kind],
            "search": None if budget is None else {
                "iterations": budget.iterations, "seconds": budget.seconds,
            },
            "strength": measured.get(kind, {}),
        })
    return levels


def get_bot(kind: str) -> BotFunction:
    """The bot function for ``kind``; raises ``KeyError`` for an unknown kind."""
    return _BOTS[kind]


def bot_rng(match_key: object, ply: int, seat: int) -> SeededRng:
    """The bot's own randomness, seeded from ``match_key`` (in the service a secret derived
    from the match seed, games/matches/bot_randomness.py), the ply and the seat, so the same match,
    ply and seat always choose the same move."""
    return SeededRng(f"bot:{match_key}:{ply}:{seat}")


def choose_bot_move(
    kind: str,
    engine: Engine,
    view: dict,
    legal_moves: list[dict],
    seat: int,
    *,
    match_key: object,
    ply: int,
    iteration_cap: int | None = None,
) -> dict:
    """Ask the ``kind`` bot for ``seat``'s move at ``ply``, seeded from ``match_key``.
    ``iteration_cap`` lowers a search level's iterations (tests, slow machines)."""
    rng = bot_rng(match_key, ply, seat)
    budget = SEARCH_LEVELS.get(kind)
    if budget is not None and iteration_cap is not None:
        capped = replace(budget, iterations=max(1, min(budget.iterations, int(iteration_cap))))
        return choose_ismcts_move(engine, view, legal_moves, seat, rng, capped)
    return get_bot(kind)(engine, view, legal_moves, seat, rng)
