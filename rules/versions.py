"""Which rules version each engine plays: replaying a stored match under the rules it was
played under (docs/architecture.md, "Rules versions").

A match stores its game's ``rules_version`` from its creation. Its log is only proof of
its result under those rules: once a rule is fixed, today's engine may refuse an old move
or score an old game otherwise. So every replay, every check of a record and every
picture of a past position asks this module, never ``get_engine`` alone:

- the current version of a game is its registered engine (``rules.registry``);
- an older version is played by a **frozen engine**, kept runnable for as long as matches
  of that version exist: the engine class as it was (a copy of only the modules that
  changed), or a subclass of today's engine that restores the old behaviour. Built-in
  games list theirs in ``_FROZEN``; a plugin game lists its own with
  ``set_extra_versions`` (the ``EXTRA_GAMES`` setting's ``game@version`` entries);
- any other version is ``UnknownRulesVersion``: the service cannot judge that match, and
  says so instead of replaying it under the wrong rules.

The policy (docs/records.md, "Rules versions"): a change to what ``setup``, ``apply``,
``to_act``, ``is_over``, ``result`` or ``to_json`` give for any log bumps the engine's
``rules_version`` and registers the old version here. tests/rules/corpus holds seeded
games of every version, frozen with their state digests and results; the test beside it
replays each through ``engine_at`` and fails when an engine changes any of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module

from rules.engine import Engine
from rules.registry import get_engine

#: ``(game, rules_version) -> "module:Class"`` of a built-in game's frozen older engine.
#: Han 1 and Hansa 2: the rules of today with the state's JSON of then (issue 44 added the
#: public facts the bots' samplers read). Hansa's version 1 (before ruling Q10's storage
#: change, 2026-11-29) was not frozen when it changed, so its matches answer
#: UnknownRulesVersion rather than a replay under rules they were not played by.
_FROZEN: dict[tuple[str, str], str] = {
    ("han", "1"): "rules.han.engine_v1:HanEngineV1",
    ("hansa", "2"): "rules.hansa.engine_v2:HansaEngineV2",
}

#: the same for plugin games, set from configuration
_EXTRA: dict[tuple[str, str], str] = {}

_instances: dict[tuple[str, str], Engine] = {}


class UnknownRulesVersion(LookupError):
    """No engine of this service plays ``game`` under ``rules_version``."""

    def __init__(self, game: str, rules_version: str, runnable: list[str]) -> None:
        super().__init__(f"{game} rules version {rules_version!r} is not kept "
                         f"(runnable: {', '.join(runnable)})")
        self.game = game
        self.rules_version = rules_version
        self.runnable = runnable


def set_extra_versions(entries: Mapping[tuple[str, str], str]) -> None:
    """Replace the frozen engines registered by configuration: ``{(game, version):
    "module:Class"}``. Checked now (the path's form), imported on first use. Raises
    ValueError."""
    for (game, version), path in entries.items():
        if (game, version) in _FROZEN:
            raise ValueError(f"{game}@{version}: a built-in frozen engine plays it")
        if not isinstance(path, str) or path.count(":") != 1 or not version:
            raise ValueError(f"{game}@{version}: {path!r} is not 'module:Class'")
    for key in {*_EXTRA, *entries}:
        _instances.pop(key, None)
    _EXTRA.clear()
    _EXTRA.update(entries)


def current_version(game: str) -> str:
    """The version new matches of ``game`` are played under. KeyError for an unknown game."""
    return str(get_engine(game).rules_version)


def runnable_versions(game: str) -> list[str]:
    """Every version of ``game`` this service replays, the current one first."""
    current = current_version(game)
    older = sorted({version for (name, version) in (*_FROZEN, *_EXTRA)
                    if name == game and version != current})
    return [current, *older]


def engine_at(game: str, rules_version: str) -> Engine:
    """The engine that plays ``game`` under ``rules_version``. Raises KeyError for an
    unknown game, UnknownRulesVersion for a version no engine here plays."""
    current = get_engine(game)
    if rules_version == str(current.rules_version):
        return current
    key = (game, rules_version)
    engine = _instances.get(key)
    if engine is not None:
        return engine
    path = _FROZEN.get(key) or _EXTRA.get(key)
    if path is None:
        raise UnknownRulesVersion(game, rules_version, runnable_versions(game))
    module_name, class_name = path.split(":")
    engine = getattr(import_module(module_name), class_name)()
    if engine.name != game or str(engine.rules_version) != rules_version:
        # a frozen engine registered under another game's or version's name would replay
        # every match of that version under the wrong rules: refuse it loudly
        raise ValueError(f"{path} plays {engine.name} version {engine.rules_version}, "
                         f"not {game} version {rules_version}")
    _instances[key] = engine
    return engine
