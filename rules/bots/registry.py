"""Bot kinds by name, and the one way to ask a bot for a move."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import cache, partial
from pathlib import Path

from rules.bots.greedy_bot import choose_greedy_move
from rules.bots.ismcts import SearchBudget, choose_ismcts_move
from rules.bots.ismcts_v1 import SearchBudget as LegacyBudget
from rules.bots.ismcts_v1 import choose_ismcts_v1_move
from rules.bots.random_bot import choose_random_move
from rules.engine import Engine
from rules.rng import SeededRng

BotFunction = Callable[[Engine, dict, list, int, SeededRng], dict]

#: the search levels: IS-MCTS (rules/bots/ismcts.py) differing only in their iteration
#: budget, which is the level: the same seed plays the same move on a busy or an idle
#: machine. The iterations are those at two seats; each further seat adds as many again
#: (``SearchBudget.iterations_for``: hard searches 900 at four). ``seconds`` is a
#: wall-clock backstop some ten times a budget's usual time at four seats (about 0.6 ms of
#: CPU per iteration), below the worker's soft time limit (8 s); a firing is counted and
#: logged (``rules.bots.ismcts.backstop_firings``).
SEARCH_LEVELS: dict[str, SearchBudget] = {
    "easy": SearchBudget(iterations=25, seconds=2.0),
    "medium": SearchBudget(iterations=100, seconds=4.0),
    "hard": SearchBudget(iterations=300, seconds=6.0),
}

#: ``hard_v1``: the search ``hard`` used before issue 23 (rules/bots/ismcts_v1.py), kept
#: as a yardstick for the new one; same iterations as ``hard``, and the same backstop in
#: place of its old 1.5 s cap, so that a busy machine weakens neither
LEGACY_LEVELS: dict[str, LegacyBudget] = {
    "hard_v1": LegacyBudget(iterations=300, seconds=6.0),
}

_SEARCHES: dict[str, tuple[Callable, SearchBudget | LegacyBudget]] = {
    **{level: (choose_ismcts_move, budget) for level, budget in SEARCH_LEVELS.items()},
    **{level: (choose_ismcts_v1_move, budget) for level, budget in LEGACY_LEVELS.items()},
}

_BOTS: dict[str, BotFunction] = {
    "random": choose_random_move,
    "greedy": choose_greedy_move,
    **{level: partial(search, budget=budget) for level, (search, budget) in _SEARCHES.items()},
}

#: the bot kinds a seat may be given, in catalogue order (weakest first; ``hard_v1`` is
#: the old ``hard``, below the new one)
BOT_KINDS: tuple[str, ...] = ("random", "greedy", "easy", "medium", "hard_v1", "hard")

BOT_DESCRIPTIONS: dict[str, str] = {
    "random": "Plays any legal move, uniformly at random.",
    "greedy": "Plays the move worth the most points at once, judged from its own view.",
    "easy": "Searches a little: information-set Monte Carlo tree search, "
            f"{SEARCH_LEVELS['easy'].iterations} sampled playouts per move in a two-player "
            "game, as many again per further player.",
    "medium": "Information-set Monte Carlo tree search, "
              f"{SEARCH_LEVELS['medium'].iterations} sampled playouts per move in a "
              "two-player game, as many again per further player.",
    "hard_v1": "The hard level as it played before the search learnt the history's public "
               "knowledge (kept for comparison): information-set Monte Carlo tree search, "
               f"{LEGACY_LEVELS['hard_v1'].iterations} sampled playouts per move.",
    "hard": "Information-set Monte Carlo tree search, "
            f"{SEARCH_LEVELS['hard'].iterations} sampled playouts per move in a two-player "
            "game, as many again per further player, dealing only "
            "hands the game's history allows.",
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
        budget = _SEARCHES.get(kind, (None, None))[1]
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


def longest_think_seconds(kind: str) -> float:
    """The longest a ``kind`` bot may think over one move: a search level's wall-clock
    backstop; 0 for the bots that only weigh the legal moves (random, greedy)."""
    _search, budget = _SEARCHES.get(kind, (None, None))
    return budget.seconds if budget is not None else 0.0


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
    search, budget = _SEARCHES.get(kind, (None, None))
    if budget is not None and iteration_cap is not None:
        changes = {"iterations": max(1, min(budget.iterations, int(iteration_cap)))}
        if isinstance(budget, SearchBudget):  # the cap bounds it at any number of seats
            changes["grow_with_seats"] = False
        capped = replace(budget, **changes)
        return search(engine, view, legal_moves, seat, rng, capped)
    return get_bot(kind)(engine, view, legal_moves, seat, rng)
