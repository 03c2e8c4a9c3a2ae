"""What each field of the GraphQL schema costs to resolve: the table the cost estimate
(games/graphql/cost_estimate.py) prices an operation with, before running it.

Each field is named as ``Type.field``: ``Match.view`` calls the engine, ``Replay.view``
reads an attribute already built. A field not listed costs ``DEFAULT_WEIGHT``: a plain
attribute of an object already built.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.matches import parsing
from games.ratings.selectors import RECENT_MATCHES


@dataclass(frozen=True)
class Weight:
    #: units for each time the field is resolved
    call: int
    #: units more for each item of the list it returns (a page's rows, a log's moves)
    item: int = 0


UNIT_MS = 0.05
DEFAULT_WEIGHT = Weight(1)

#: the work of a field beyond reading a value
FIELD_WEIGHTS: dict[str, Weight] = {
    "Match.view": Weight(10),  # engine.view of the match state
    "Match.legalMoves": Weight(10),  # engine.legal_moves
    "Match.log": Weight(5),  # a query on the move log
    "Match.events": Weight(10),  # the log and a view
    "Match.result": Weight(5),
    "Query.replay": Weight(50),  # rebuilds the state from the whole log
    "Query.match": Weight(2),
    "Query.matches": Weight(5),  # a count and a page
    "Game.maps": Weight(20),  # every board of the catalogue
    "Subscription.matchUpdates": Weight(20),
}

#: fields that hash a password (PBKDF2, 340-430 ms by design, the point of it): their
#: weight above is the rest of their work; an operation may hold one of them, and the
#: auth rate limit counts each (limits.MAX_PASSWORD_CHECKS)
PASSWORD_CHECKS = frozenset({"Mutation.register", "Mutation.login"})

# -- list sizes ---------------------------------------------------------------------------
#: a list's size given by an argument of the field itself: (argument, default)
OWN_PAGES: dict[str, tuple[str, int]] = {
    "Match.log": ("limit", parsing.MAX_PAGE_SIZE),
    "Player.ratingHistory": ("limit", 20),
}
#: a list's size given by an argument of the field above it: (that field, argument,
#: default), e.g. a page of matches holds ``matches(limit)`` results
PARENT_PAGES: dict[str, tuple[str, str, int]] = {
    "MatchPage.results": ("Query.matches", "limit", parsing.DEFAULT_PAGE_SIZE),
    "MatchEvents.moves": ("Match.events", "limit", parsing.MAX_PAGE_SIZE),
    "Leaderboard.results": ("Query.leaderboard", "limit", parsing.DEFAULT_PAGE_SIZE),
}
_SEATS = 5  # the most seats of any game
_GAMES = 2
#: lists of objects whose size the rules or the data bound
LIST_SIZES: dict[str, int] = {
    "Query.games": _GAMES,
    "Query.myInvitations": 100,
    "Query.myQuickMatches": 20,
    "Player.games": _GAMES,
    "Player.ratings": _GAMES,
    "Player.recentMatches": RECENT_MATCHES,
    "Match.seats": _SEATS,
    "Match.clocks": _SEATS,
    "Match.incidents": 20,
    "MatchEvents.clocks": _SEATS,
    "MatchEvents.incidents": 20,
    "MatchResult.results": _SEATS,
    "MatchResult.forfeits": _SEATS,
    "MatchResult.timeouts": _SEATS,
    "MatchUpdate.seats": _SEATS,
    "MatchUpdate.moves": parsing.MAX_PAGE_SIZE,
    "MatchUpdate.clocks": _SEATS,
    "MatchUpdate.incidents": 20,
    "InvitationsPayload.invitations": 20,
    "AuthPayload.errors": 5,
    "InvitationsPayload.errors": 5,
    "LobbyMatchPayload.errors": 5,
    "MatchPayload.errors": 5,
    "QuickMatchPayload.errors": 5,
    "RevokeTokenPayload.errors": 5,
    "SubmitMovePayload.errors": 5,
}


def table_weight(key: str) -> int | None:
    """The table's weight for a bench line: "Type.field" (per call) or "Type.field+item"
    (per item of its list); None when the table has no line."""
    name, _plus, item = key.partition("+")
    weight = FIELD_WEIGHTS.get(name)
    if weight is None:
        return None
    return weight.item if item else weight.call
