"""The game registry: adding a game is one line here and a package under rules/."""

from __future__ import annotations

from importlib import import_module

from rules.engine import Engine

_GAMES: dict[str, str] = {
    "han": "rules.han.engine:HanEngine",
    "hansa": "rules.hansa.engine:HansaEngine",
}

_instances: dict[str, Engine] = {}


def available_games() -> list[str]:
    return list(_GAMES)


def get_engine(game: str) -> Engine:
    """The engine for ``game``; raises ``KeyError`` for an unknown game."""
    engine = _instances.get(game)
    if engine is None:
        module_name, class_name = _GAMES[game].split(":")
        engine = getattr(import_module(module_name), class_name)()
        _instances[game] = engine
    return engine
