"""The game catalogue: what each game is, its options, bots and time controls."""

from __future__ import annotations

from games.i18n.catalogue import localized_entry
from games.matches import time_controls
from games.matches.setup_checks import engine_for
from rules import available_games
from rules.bots import BOT_KINDS
from rules.bots.registry import bot_levels


def list_games() -> list[dict]:
    """Catalogue entries (``engine.describe()`` plus ``bot_kinds``) of every game."""
    return [get_game(game) for game in available_games()]


def get_game(game: str) -> dict:
    """The catalogue entry of ``game``: ``{"game", "title", "players": {"min", "max"},
    "options", "rules_version", "bot_kinds", "bot_levels", "move_schema", "time_controls"}``
    and whatever else the engine describes for drawing the game (Han ``maps``, ``drawing``);
    ``bot_levels`` describes each bot kind with its search budget and the strength measured
    in this game (bench/bot_strength.py). Titles, descriptions and names are in the active
    language (games/i18n/catalogue.py). Raises UnknownGame (404)."""
    engine = engine_for(game)
    entry = dict(engine.describe())
    entry.setdefault("game", game)
    entry["move_schema"] = engine.move_schema()
    entry["bot_kinds"] = list(BOT_KINDS)
    entry["time_controls"] = time_controls.catalogue()
    entry["bot_levels"] = [
        {**level, "strength": level["strength"].get(game, {})} for level in bot_levels()
    ]
    return localized_entry(entry)  # in the request's language (games/i18n/catalogue.py)
