"""What each field of the GraphQL schema costs to resolve: the table the cost estimate
(games/graphql/cost_estimate.py) prices an operation with, before running it.

A unit is about 50 us of a web process's time on our 2-core machine, so the cap of 5,000
(limits.MAX_COST) is about 250 ms. Every weight below was measured by
bench/graphql_field_costs.py on a realistic database: a player with 50 finished matches
(their profile, rating history and feed), the longest of them a 134-ply five-player Han
game (replays, records, logs), running matches where they are to act (views, legal
moves). Each weight is that field's median time per call, in units, rounded up, next
to the milliseconds it came from (docs/capacity.md has the run). Rerun the bench when a
resolver changes, and give a new resolver its line: tests/games/graphql/
test_field_weights.py fails, naming the field, for a resolver without one.

A field not listed costs ``DEFAULT_WEIGHT``: a plain attribute of an object already
built (a match's ``game``, a log entry's ``move``), about 10-20 us.
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

FIELD_WEIGHTS: dict[str, Weight] = {
    # -- queries -------------------------------------------------------------------------
    "Query.games": Weight(11),
    "Query.game": Weight(12),
    "Query.matches": Weight(299),
    "MatchPage.results": Weight(1, item=4),
    "Query.match": Weight(32),
    "Query.replay": Weight(230),
    "Query.me": Weight(8),
    "Query.matchRecord": Weight(322),
    "Query.verifyRecord": Weight(326),
    "Query.leaderboard": Weight(70, item=1),
    "Query.player": Weight(477),
    "Player.ratingHistory": Weight(123, item=1),
    "Query.myInvitations": Weight(204, item=1),
    "Query.myQuickMatches": Weight(58, item=1),
    # -- the catalogue's large documents (attributes, but megabytes of JSON to encode) ---
    "Game.maps": Weight(13),
    "Game.drawing": Weight(4),
    "Game.moveSchema": Weight(1),
    "Game.botLevels": Weight(2),
    # -- a match's fields (a page of matches hands each one over) ------------------------
    "Match.status": Weight(4),
    "Match.createdBy": Weight(2),
    "Match.seed": Weight(2),
    "Match.seats": Weight(5),
    "Match.yourSeat": Weight(9),
    "Match.toAct": Weight(3),
    "Match.view": Weight(10),
    "Match.legalMoves": Weight(4),
    "Match.log": Weight(29, item=2),
    "Match.events": Weight(38),
    "MatchEvents.moves": Weight(1, item=3),
    "Match.result": Weight(53),
    "Match.timeControl": Weight(2),
    "Match.clocks": Weight(4),
    "Match.reclaimableSeat": Weight(8),
    "Match.incidents": Weight(29),
    # -- mutations: a transaction each (bot turns and scoring run in workers) ------------
    "Mutation.register": Weight(158),
    "Mutation.login": Weight(158),
    "Mutation.revokeToken": Weight(188),
    "Mutation.createMatch": Weight(123),
    "Mutation.joinMatch": Weight(267),
    "Mutation.leaveMatch": Weight(185),
    "Mutation.startMatch": Weight(341),
    "Mutation.abortMatch": Weight(252),
    "Mutation.resignMatch": Weight(196),
    "Mutation.reclaimSeat": Weight(159),
    "Mutation.submitMove": Weight(80),
    "Mutation.createPrivateMatch": Weight(251),
    "Mutation.inviteToMatch": Weight(138),
    "Mutation.acceptInvitation": Weight(223),
    "Mutation.declineInvitation": Weight(115),
    "Mutation.joinByInviteCode": Weight(266),
    "Mutation.proposeRematch": Weight(233),
    "Mutation.requestQuickMatch": Weight(142),
    "Mutation.cancelQuickMatch": Weight(58),
    # -- subscriptions: the first push (each later one does the same work again) ---------
    "Subscription.matchUpdates": Weight(114),
    "Subscription.myEvents": Weight(120),
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
_GAMES = 4  # the catalogue's games, with room for EXTRA_GAMES
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
