"""The engine of the rules a match was played under (rules/versions.py).

Every reader and writer of a match's game asks ``engine_of(match)``, never the game's
current engine: a match stored under an older rules version is replayed, pictured,
exported and verified under that version, and a version no engine here plays is a clean
409 ``rules_version_unavailable`` instead of a replay under other rules (or a 500 when
the log no longer replays).
"""

from __future__ import annotations

from games.matches import errors
from games.matches.models import Match
from rules.engine import Engine
from rules.versions import UnknownRulesVersion, engine_at


def engine_of(match: Match) -> Engine:
    """The engine of ``match.game`` at ``match.rules_version``. Raises
    RulesVersionUnavailable (409)."""
    try:
        return engine_at(match.game, match.rules_version)
    except UnknownRulesVersion as exc:
        raise errors.RulesVersionUnavailable(details={
            "game": match.game, "rules_version": match.rules_version,
            "runnable": exc.runnable}) from None


def replayable(match: Match) -> bool:
    """Whether an engine here plays ``match``'s rules version."""
    try:
        engine_at(match.game, match.rules_version)
    except UnknownRulesVersion:
        return False
    return True
