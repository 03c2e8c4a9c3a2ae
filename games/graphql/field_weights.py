"""What each field of the GraphQL schema costs to resolve: the table the cost estimate
(games/graphql/cost_estimate.py) prices an operation with, before running it.

A unit is about 50 us of a web process's time on our 2-core machine, so the cap of 5,000
(limits.MAX_COST) is about 250 ms. Every weight below was measured by
bench/graphql_field_costs.py on a realistic database: a player with 50 finished matches
(their profile, rating history and feed), the longest of them a 134-ply five-player Han
game (replays, records, logs), running Han and Hansa matches where they are to act
(views, legal moves). Each weight is a field's time per call (its median over the
bench's rounds, the slower of two runs: one with the machine at a load of 5-7, one at 3)
in units, rounded up; the milliseconds stand beside it, and docs/capacity.md has the
runs. A field of Match was timed through ``match(id)`` and on a page of matches, and the
slower counts. Rerun the bench when a resolver changes, and give a new resolver its line:
tests/games/graphql/test_field_weights.py fails, naming the field, for a resolver
without one.

A field not listed costs ``DEFAULT_WEIGHT``: a plain attribute of an object already
built (a match's ``game``, a log entry's ``move``), 5-60 us.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.leaving.export import MAX_GRAPHQL_RECORDS
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
    # -- queries (ms per call; per item of the list after "+") ---------------------------
    "Query.games": Weight(12),  # 0.56 ms: the catalogue
    "Query.game": Weight(12),  # 0.56
    "Query.matches": Weight(299),  # 14.9: the count (the listing's privacy filter)
    "MatchPage.results": Weight(1, item=4),  # + 0.19 per row: the match and its seats
    "Query.match": Weight(32),  # 1.6: the match, its seats and incidents
    "Query.replay": Weight(230),  # 11.5: 134 moves applied again, every seat's view
    "Query.me": Weight(8),  # 0.39
    "Query.matchRecord": Weight(322),  # 16.1: 134 moves applied again, a digest each
    "Query.verifyRecord": Weight(326),  # 16.3: a record of 5,000 moves read, 134 played
    # the configured keys, built once per process: 0.01 ms (timeit, issue 39)
    "Query.recordSigningKeys": Weight(1),
    "Query.leaderboard": Weight(70, item=1),  # 3.5
    "Query.player": Weight(477),  # 23.8: the whole profile, whatever is asked of it
    "Player.ratingHistory": Weight(123, item=1),  # 6.1 + 0.05 per change
    "Query.myInvitations": Weight(204, item=1),  # 10.2
    "Query.myQuickMatches": Weight(58, item=1),  # 2.9
    # 40 ms: profile, ratings, running matches' views, invitations (measured at a load of
    # 18 and scaled by matchRecord's time in the same run: docs/capacity.md); each record
    # of its page is a matchRecord's work
    "Query.myData": Weight(800, item=322),
    # the analysis of a 131-ply Han game (bench/graphql_field_costs.py's probes, timed at a
    # load of 10-15: higher than the rest of this table's)
    "Query.matchAnalysis": Weight(550),  # 27.5: the analysis and a row per decision
    # -- the catalogue's documents (attributes, but JSON to encode) ----------------------
    "Game.maps": Weight(13),  # 0.64: every Han board
    "Game.drawing": Weight(4),  # 0.15
    "Game.moveSchema": Weight(3),  # 0.11
    "Game.botLevels": Weight(2),  # 0.09
    "Game.options": Weight(2),  # 0.08
    # -- a match's fields, each time a match hands one over ------------------------------
    "Match.status": Weight(4),  # 0.18
    "Match.createdBy": Weight(2),  # 0.08
    "Match.seed": Weight(2),  # 0.09
    "Match.seats": Weight(5),  # 0.22
    "Match.yourSeat": Weight(9),  # 0.43
    "Match.toAct": Weight(3),  # 0.14
    "Match.timeControl": Weight(3),  # 0.11
    "Match.clocks": Weight(4),  # 0.19
    "Match.reclaimableSeat": Weight(8),  # 0.36
    "Match.incidents": Weight(29),  # 1.4: a query per match on a page
    # not timed yet: four small queries (private? seated? rematch both ways), priced as
    # about 1.5 times incidents' one until bench/graphql_field_costs.py times it
    "Match.lobby": Weight(45),
    "Match.view": Weight(10),  # 0.50: engine.view
    # 0.80 ms at a load of 15 (Match.status 0.62 in that run): reverse() and the ply check
    "Match.boardSvgUrl": Weight(5),
    "Match.legalMoves": Weight(5),  # 0.20: engine.legal_moves
    "Match.log": Weight(32, item=2),  # 1.6 + 0.09 per move: a query, each move redacted
    "Match.events": Weight(38),  # 1.9: the log's query and a view
    "MatchEvents.moves": Weight(1, item=3),  # + 0.14 per move
    "Match.result": Weight(53),  # 2.6: the results, the final state read
    # -- mutations: one transaction each; bot turns and scoring run in workers -----------
    "Mutation.register": Weight(66),  # 3.3 besides the password hash (PASSWORD_CHECKS)
    "Mutation.login": Weight(93),  # 4.6 besides the password hash
    "Mutation.revokeToken": Weight(188),  # 9.4
    "Mutation.createMatch": Weight(123),  # 6.1
    "Mutation.joinMatch": Weight(267),  # 13.3
    "Mutation.leaveMatch": Weight(185),  # 9.2
    "Mutation.startMatch": Weight(341),  # 17.0
    "Mutation.abortMatch": Weight(252),  # 12.6
    "Mutation.resignMatch": Weight(214),  # 10.7
    "Mutation.reclaimSeat": Weight(193),  # 9.6
    "Mutation.submitMove": Weight(89),  # 4.4
    "Mutation.createPrivateMatch": Weight(251),  # 12.5
    "Mutation.inviteToMatch": Weight(138),  # 6.9
    "Mutation.acceptInvitation": Weight(244),  # 12.2
    "Mutation.declineInvitation": Weight(115),  # 5.7
    "Mutation.joinByInviteCode": Weight(266),  # 13.3
    "Mutation.proposeRematch": Weight(233),  # 11.6
    "Mutation.requestQuickMatch": Weight(142),  # 7.1
    "Mutation.cancelQuickMatch": Weight(61),  # 3.0
    "Mutation.requestAnalysis": Weight(445),  # 22.2 (load 10-15): the match locked, joined
    "Mutation.deleteAccount": Weight(954),  # 47.7 (scaled as myData): leaves a match too
    # -- subscriptions: the work of one push (the first, and each later one again) -------
    "Subscription.matchUpdates": Weight(116),  # 5.8: the match read, 134 moves redacted
    "Subscription.myEvents": Weight(130),  # 6.5: a page of the feed
    "Subscription.analysisProgress": Weight(280),  # 14.0 (load 10-15): the match, its analysis
}

#: fields that hash a password (PBKDF2, hundreds of milliseconds by design, the point of
#: it): their weight above is the rest of their work; an operation may hold one of them,
#: and the auth rate limit counts each (limits.MAX_PASSWORD_CHECKS)
PASSWORD_CHECKS = frozenset({"Mutation.register", "Mutation.login",
                             "Mutation.deleteAccount"})

# -- list sizes ---------------------------------------------------------------------------
#: a list's size given by an argument of the field itself: (argument, default)
OWN_PAGES: dict[str, tuple[str, int]] = {
    "Match.log": ("limit", parsing.MAX_PAGE_SIZE),
    "Player.ratingHistory": ("limit", 20),
    "Query.myData": ("recordsLimit", MAX_GRAPHQL_RECORDS),  # its page of records
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
    "RecordSigningKeySet.keys": 10,  # the current key and the older ones still published
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
    "DeleteAccountPayload.errors": 5,
    "InvitationsPayload.errors": 5,
    "LobbyMatchPayload.errors": 5,
    "MatchPayload.errors": 5,
    "QuickMatchPayload.errors": 5,
    "AnalysisPayload.errors": 5,
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
