"""What a game, a player count and options must be: one set of checks for every place
that names them (creating a match, a quick-match request, a record to verify, the
catalogue and the filters of lists), so each refuses the same mistake with the same code.

Where a mistake is answered differently, the caller says so: an unknown game is 404 when
the game is in the path and 400 when a body or a filter names it (docs/api.md), and
records wrap these errors in their own ``invalid_record`` (docs/records.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from games.matches import errors
from infra.numbers import whole_number
from infra.translation import message_of
from rules import InvalidOptions as EngineInvalidOptions
from rules import get_engine
from rules.engine import Engine


def engine_for(game: Any, *, unknown_status: int = 404, **details: Any) -> Engine:
    """The engine of ``game``, or UnknownGame with ``unknown_status`` (404 for a path,
    400 for a request body or a filter); ``details`` go into the error."""
    if not isinstance(game, str):
        raise errors.UnknownGame(_("The game must be a string."), details=details or None,
                                 http_status=unknown_status)
    try:
        return get_engine(game)
    except KeyError:
        raise errors.UnknownGame(
            _("No game called %(game)r.") % {"game": game[:40]},
            details={"game": game[:40], **details},
            http_status=unknown_status,
        ) from None


def player_count(players: Any, catalogue: dict) -> int:
    """``players`` if it is a whole number inside the game's range (``catalogue``: its
    ``engine.describe()``), else InvalidPlayerCount (400). A map may narrow the range
    further: that is ``match_options``' to say."""
    limits = catalogue.get("players", {})
    low, high = limits.get("min", 1), limits.get("max", 16)
    if isinstance(players, bool) or not isinstance(players, int):
        raise errors.InvalidPlayerCount(_("players must be a whole number."),
                                        details=player_count_details(players, low, high))
    if not low <= players <= high:
        raise errors.InvalidPlayerCount(
            _("%(game)s is for %(min)s to %(max)s players, not %(players)s.") % {
                "game": catalogue.get("title", catalogue.get("game")), "min": low,
                "max": high, "players": players},
            details=player_count_details(players, low, high),
        )
    return players


def player_count_details(players: Any, low: int, high: int) -> dict:
    """``invalid_player_count``'s one ``details`` shape, wherever it is raised (here, or
    the engine for a map's narrower range: ``checked_setup``): the count given, as sent
    when it is a JSON scalar, and the range allowed (issue 41: the two had two shapes)."""
    given = players if players is None or isinstance(players, (bool, int, float)) \
        else str(players)[:40]
    return {"field": "players", "players": given, "min": low, "max": high}


def match_options(engine: Engine, players: int, options: Any) -> dict:
    """``options`` checked and completed by the engine (``normalize_options``), else
    InvalidOptions (400) with the engine's own code in ``details.reason``. Options that
    do not fit the player count (Han's map for 5 players on Ways of Diplomacy) are
    InvalidPlayerCount, in the shape ``player_count`` gives it (creating a match and quick
    match answered them differently before issue 41)."""
    if options is not None and not isinstance(options, dict):
        raise errors.InvalidOptions(_("options must be a JSON object."))
    try:
        return engine.normalize_options(players, options)
    except EngineInvalidOptions as exc:
        if exc.code == "invalid_player_count":
            limits = engine.describe().get("players", {})  # the error's path only
            raise errors.InvalidPlayerCount(message_of(exc), details=player_count_details(
                players, exc.details.get("min", limits.get("min")),
                exc.details.get("max", limits.get("max")))) from None
        raise errors.InvalidOptions(message_of(exc), details={"reason": exc.code, **exc.details}
                                    ) from None


@dataclass(frozen=True)
class MatchSetup:
    """A new match's game as ``checked_setup`` accepted it."""

    engine: Engine
    players: int
    options: dict
    rules_version: str


def checked_setup(game: Any, players: Any, options: Any) -> MatchSetup:
    """The engine, player count, completed options and rules version of a new match
    (``create_match``'s checks; the game is named in a request body). Raises UnknownGame
    (400), InvalidPlayerCount (also for options that do not fit the count),
    InvalidOptions."""
    engine = engine_for(game, unknown_status=400)
    catalogue = engine.describe()  # built anew at each call (Han: its maps): once here
    count = player_count(players, catalogue)
    normalized = match_options(engine, count, options)
    return MatchSetup(engine, count, normalized, rules_version_of(engine, catalogue))


def rules_version_of(engine, catalogue: dict) -> str:
    """The rules version a match is played under: the catalogue's, else the engine's."""
    return str(catalogue.get("rules_version", engine.rules_version))


def bot_seats_by_position(pairs: Iterable[tuple[Any, Any]]) -> dict:
    """``(position, bot kind)`` pairs as a dict by position, as REST (a JSON object:
    ``{"1": "greedy"}``, keys are strings) and GraphQL (a list of inputs) both send them.
    A key that spells a number becomes that number; other keys stay as they are for the
    service to refuse. Two pairs naming one seat ("1", " 1", or 1 twice) are InvalidSeat
    here, before a dict would silently keep only one of them."""
    by_position: dict = {}
    for key, kind in pairs:
        number = whole_number(key)
        position = key if number is None else number
        if position in by_position:
            raise errors.InvalidSeat(_("Each bot seat position may appear once."),
                                     details={"position": position})
        by_position[position] = kind
    return by_position
