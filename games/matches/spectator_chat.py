"""The match's one chat option (docs/chat.md "Room rules per match"): whether its players
read (and so write) the spectators' room while the match runs. The creator chooses it
when creating the match, on every path that creates one (REST, GraphQL, the lobby's
private matches, a rematch inherits it); it is fixed from then on, as the game's options
are (games/matches/database_grants.py).

Off, a match's onlookers cannot coach its players through the spectators' room; on, the
table and its onlookers talk. The default is on for a listed match and off for a private
one, whose onlookers are the players' friends (the caller, which knows which it makes,
passes its default). The chat reads it (games/chat/selectors.py ``room_of``) and every
transport's push carries it (games.chat.rooms).

Kept beside the match, not in games/chat/, because it is decided with the match's other
terms in the one transaction that creates it, and the matches layer may not import the
chat (pyproject.toml's import contracts)."""

from __future__ import annotations

from typing import Any

from games.matches.errors import InvalidRequest

#: the creation field's name, the same on REST (snake case) and, camel-cased, on GraphQL
FIELD = "players_read_spectator_chat"


def chosen(value: Any, *, default: bool) -> bool:
    """The creator's choice: a JSON boolean, or ``default`` when left out (None). Anything
    else (a string, a number, an object) is 400 ``invalid_request`` naming the field,
    raised before the match is written."""
    if value is None:
        return default
    if not isinstance(value, bool):
        raise InvalidRequest(details={"field": FIELD, "expected": "a boolean"})
    return value
