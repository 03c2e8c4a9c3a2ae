"""Bot kinds by name, and the one way to ask a bot for a move."""

from __future__ import annotations

from collections.abc import Callable

from rules.bots.greedy_bot import choose_greedy_move
from rules.bots.random_bot import choose_random_move
from rules.engine import Engine
from rules.rng import SeededRng

BotFunction = Callable[[Engine, dict, list, int, SeededRng], dict]

_BOTS: dict[str, BotFunction] = {
    "random": choose_random_move,
    "greedy": choose_greedy_move,
}

#: the bot kinds a seat may be given, in catalogue order
BOT_KINDS: tuple[str, ...] = tuple(_BOTS)


def get_bot(kind: str) -> BotFunction:
    """The bot function for ``kind``; raises ``KeyError`` for an unknown kind."""
    return _BOTS[kind]


def bot_rng(match_key: object, ply: int, seat: int) -> SeededRng:
    """The bot's own randomness, from public facts only (never the match seed), so the
    same match, ply and seat always choose the same move."""
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
) -> dict:
    """Ask the ``kind`` bot for ``seat``'s move at ``ply``, seeded from ``match_key``."""
    return get_bot(kind)(engine, view, legal_moves, seat, bot_rng(match_key, ply, seat))
