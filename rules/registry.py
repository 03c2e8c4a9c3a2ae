"""The game registry: adding a game is one line here and a package under rules/, or, for
a game that lives elsewhere (a plugin), one entry of ``set_extra_games`` (the Django
project feeds it the ``EXTRA_GAMES`` setting)."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from rules.engine import Engine

_GAMES: dict[str, str] = {
    "han": "rules.han.engine:HanEngine",
    "hansa": "rules.hansa.engine:HansaEngine",
}

#: games registered by configuration: ``{name: "package.module:EngineClass"}``
_EXTRA: dict[str, str] = {}

_instances: dict[str, Engine] = {}


def available_games() -> list[str]:
    return [*_GAMES, *_EXTRA]


def set_extra_games(entries: Mapping[str, str]) -> None:
    """Replace the games registered by configuration. A name must not be a built-in
    game's, and each path must be ``"module:Class"`` (checked now, imported on first
    use). Raises ValueError."""
    for name, path in entries.items():
        if name in _GAMES:
            raise ValueError(f"extra game {name!r}: a built-in game has that name")
        if not isinstance(path, str) or path.count(":") != 1:
            raise ValueError(f"extra game {name!r}: {path!r} is not 'module:Class'")
    for name in {*_EXTRA, *entries}:
        _instances.pop(name, None)  # a replaced entry is imported afresh
    _EXTRA.clear()
    _EXTRA.update(entries)


def get_engine(game: str) -> Engine:
    """The engine for ``game``; raises ``KeyError`` for an unknown game."""
    engine = _instances.get(game)
    if engine is None:
        path = _GAMES[game] if game in _GAMES else _EXTRA[game]
        module_name, class_name = path.split(":")
        engine = getattr(import_module(module_name), class_name)()
        _instances[game] = engine
    return engine
