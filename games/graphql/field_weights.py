"""What each field of the GraphQL schema costs to resolve: the table the cost estimate
(games/graphql/cost_estimate.py) prices an operation with, before running it.

A unit is 0.05 ms (``UNIT_MS``) of a web process's work **under contention**: with a
second process sending the same probes, as on a busy tier (issue 39). So the cap of 5,000
(limits.MAX_COST = limits.MAX_WORK_MS / UNIT_MS) is 250 ms of such work. Measured on an
otherwise idle process, as before issue 39, three aliases of ``matchRecord`` were priced
at 48 ms and ran two to three times that under sixteen clients, under the slot threshold.

How the weights were made: bench/graphql_field_costs.py on a realistic database (a
player with 50 finished matches, their profile, rating history and feed; the longest a
134-138-ply five-player Han game: replays, records, logs; running Han and Hansa matches
where they are to act: views, legal moves) timed each field per call, the median of the
bench's rounds; the milliseconds beside each line are those idle figures (the slower of
a run at a load of 3 and one at 5-7, docs/capacity.md). The same bench with
``--contention 1`` timed the report's query, three ``matchRecord`` aliases, at 24.1 ms
an alias against 16.1 idle: a factor of 1.5 (with two competitors, 1.4-2.3 at 1, 3, 5
and 10 aliases, against 13 ms idle: docs/capacity.md). Each weight of a root field
(``Query``, ``Mutation``, ``Subscription``: the work of one call, repeated by aliases)
is its idle time times 1.5, in units, rounded up. The fields below them (a match's, a
page's, a game's, a profile's) keep their idle weights: nested in lists, they are
counted for every item the list may hold (a log its 100 moves, a page its ``limit``
rows) while real items are fewer and share their queries, and ``compositions`` under
contention timed those operations at a third to a fifth of their estimate (a page of
100 matches with their logs: 670 ms against 2,250). That run's per-field figures were
taken on a machine at a load of 6-8 from other work, up to ten times the idle ones and
noisy (attributes came out negative), so the table keeps the idle figures times the
factor measured side by side; on a quiet machine, regenerate the table with

    .venv/bin/python bench/graphql_field_costs.py --contention 1 --table

which prints every line in this table's format (``LOW`` marks a line under its measurement),
and ``compositions``: the estimate of aliased and nested operations against their time.
A field of Match was timed through ``match(id)`` and on a page of matches, and the
slower counts. Rerun the bench when a resolver changes, and give a new resolver its line:
tests/games/graphql/test_field_weights.py fails, naming the field, for a resolver
without one.

A field not listed costs ``DEFAULT_WEIGHT``: a plain attribute of an object already
built (a match's ``game``, a log entry's ``move``), 5-60 us (70 us under contention).
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
    # -- queries (idle ms per call; per item of the list after "+"; the weight of a root
    # field is 1.5 times that, in units of 0.05 ms: the module's doc) --------------------
    "Query.games": Weight(18),  # 0.56 ms: the catalogue
    "Query.game": Weight(18),  # 0.56
    "Query.matches": Weight(449),  # 14.9: the count (the listing's privacy filter)
    "MatchPage.results": Weight(1, item=4),  # + 0.19 per row: the match and its seats
    "Query.match": Weight(48),  # 1.6: the match, its seats and incidents
    "Query.replay": Weight(345),  # 11.5: 134 moves applied again, every seat's view
    "Query.me": Weight(12),  # 0.39
    # 16.1: 134 moves applied again, a digest each; 24.1 an alias of three under
    # contention (the report's query, issue 39)
    "Query.matchRecord": Weight(483),
    "Query.verifyRecord": Weight(489),  # 16.3: a record of 5,000 moves read, 134 played
    # the configured keys, built once per process: 0.01 ms (timeit, issue 39)
    "Query.recordSigningKeys": Weight(1),
    "Query.leaderboard": Weight(105, item=2),  # 3.5
    "Query.player": Weight(716),  # 23.8: the whole profile, whatever is asked of it
    "Player.ratingHistory": Weight(123, item=1),  # 6.1 + 0.05 per change
    "Query.myInvitations": Weight(306, item=2),  # 10.2
    "Query.myQuickMatches": Weight(87, item=2),  # 2.9
    # 40 ms: profile, ratings, running matches' views, invitations (measured at a load of
    # 18 and scaled by matchRecord's time in the same run: docs/capacity.md); each record
    # of its page is a matchRecord's work
    "Query.myData": Weight(1200, item=483),
    # the analysis of a 131-ply Han game (bench/graphql_field_costs.py's probes, timed at a
    # load of 10-15: higher than the rest of this table's)
    "Query.matchAnalysis": Weight(825),  # 27.5: the analysis and a row per decision
    # not timed yet (issue 43): the match, its room, the mutes' filter and a count, priced
    # as a third of Query.matches' count until bench/graphql_field_costs.py times them
    "Query.chatMessages": Weight(150),
    "ChatMessagePage.results": Weight(1, item=1),  # attributes of a row already read
    "Query.myChatMutes": Weight(12),  # one query, as Query.me
    "Query.myMailSettings": Weight(61),  # 2.0 at a load of 6-7: one row
    # issue 42, timed through /graphql/ at a load of 7-8 against Query.me in the same run
    # (each the difference, plus me's 0.39): so above their idle times, never below
    "Query.myNotificationPreferences": Weight(114),  # 3.8: one query, defaults filled in
    # 24 ms for 20 waiting matches, 1 or 20 asked: all are read and sorted by deadline
    "Query.gamesWaitingForMe": Weight(720, item=1),
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
    "Mutation.register": Weight(99),  # 3.3 besides the password hash (PASSWORD_CHECKS)
    "Mutation.login": Weight(140),  # 4.6 besides the password hash
    "Mutation.revokeToken": Weight(282),  # 9.4
    "Mutation.createMatch": Weight(185),  # 6.1
    "Mutation.joinMatch": Weight(401),  # 13.3
    "Mutation.leaveMatch": Weight(278),  # 9.2
    "Mutation.startMatch": Weight(512),  # 17.0
    "Mutation.abortMatch": Weight(378),  # 12.6
    "Mutation.resignMatch": Weight(321),  # 10.7
    "Mutation.reclaimSeat": Weight(290),  # 9.6
    "Mutation.submitMove": Weight(134),  # 4.4
    "Mutation.createPrivateMatch": Weight(377),  # 12.5
    "Mutation.inviteToMatch": Weight(207),  # 6.9
    "Mutation.acceptInvitation": Weight(366),  # 12.2
    "Mutation.declineInvitation": Weight(173),  # 5.7
    "Mutation.joinByInviteCode": Weight(399),  # 13.3
    "Mutation.proposeRematch": Weight(350),  # 11.6
    "Mutation.requestQuickMatch": Weight(213),  # 7.1
    "Mutation.cancelQuickMatch": Weight(92),  # 3.0
    "Mutation.requestAnalysis": Weight(668),  # 22.2 (load 10-15): the match locked, joined
    # not timed yet (issue 43): the match, the room, the rate's two INCRs and an INSERT,
    # priced as submitMove's one transaction
    "Mutation.sendChatMessage": Weight(134),
    "Mutation.deleteChatMessage": Weight(134),
    "Mutation.muteInChat": Weight(92),  # as cancelQuickMatch: a lookup and one write
    "Mutation.unmuteInChat": Weight(92),
    "Mutation.deleteAccount": Weight(1431),  # 47.7 (scaled as myData): leaves a match too
    # 19.6 on a loaded machine (bench/graphql_mutation_weights.py), where joinMatch took
    # 19.6 and leaveMatch 13.1: weighed as joinMatch, scaled alike
    "Mutation.reportChatMessage": Weight(410),
    # a player's e-mail (games/graphql/mail.py), timed through the test client at a load of
    # 6-7 (not idle: priced high, not low); the weight is that time times 1.5
    "Mutation.setMailAddress": Weight(102),  # 3.4: the row locked, written, a task queued
    "Mutation.updateMailSettings": Weight(183),  # 6.1
    "Mutation.resendMailConfirmation": Weight(113),  # 3.7
    "Mutation.setNotificationPreferences": Weight(219),  # 7.3 (load 7-8): one upsert
    # -- subscriptions: the work of one push (the first, and each later one again) -------
    "Subscription.matchUpdates": Weight(174),  # 5.8: the match read, 134 moves redacted
    "Subscription.myEvents": Weight(195),  # 6.5: a page of the feed
    "Subscription.analysisProgress": Weight(420),
    # not timed yet: a push is a message already built, filtered in memory; the match's
    # read at its start as Query.match
    "Subscription.chatMessages": Weight(48),  # 14.0 (load 10-15): the match, its analysis
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
#: pages whose resolver refuses more than this (invalid_request), so the estimate counts
#: at most this many; any other page is counted up to parsing.MAX_PAGE_SIZE
OWN_PAGE_MAXIMA: dict[str, int] = {"Query.myData": MAX_GRAPHQL_RECORDS}
#: a list's size given by an argument of the field above it: (that field, argument,
#: default), e.g. a page of matches holds ``matches(limit)`` results
PARENT_PAGES: dict[str, tuple[str, str, int]] = {
    "MatchPage.results": ("Query.matches", "limit", parsing.DEFAULT_PAGE_SIZE),
    "MatchEvents.moves": ("Match.events", "limit", parsing.MAX_PAGE_SIZE),
    "Leaderboard.results": ("Query.leaderboard", "limit", parsing.DEFAULT_PAGE_SIZE),
    "ChatMessagePage.results": ("Query.chatMessages", "limit", parsing.DEFAULT_PAGE_SIZE),
}
_SEATS = 5  # the most seats of any game
_GAMES = 4  # the catalogue's games, with room for EXTRA_GAMES
#: lists of objects whose size the rules or the data bound
LIST_SIZES: dict[str, int] = {
    "Query.games": _GAMES,
    "Query.myInvitations": 100,
    "Query.myQuickMatches": 20,
    "Query.gamesWaitingForMe": 100,  # its limit's maximum
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
    "Query.myChatMutes": 100,
    "ChatMessagePayload.errors": 5,
    "ChatMutePayload.errors": 5,
    "AuthPayload.errors": 5,
    "DeleteAccountPayload.errors": 5,
    "InvitationsPayload.errors": 5,
    "LobbyMatchPayload.errors": 5,
    "MatchPayload.errors": 5,
    "QuickMatchPayload.errors": 5,
    "AnalysisPayload.errors": 5,
    "MailSettingsPayload.errors": 5,
    "RevokeTokenPayload.errors": 5,
    "SubmitMovePayload.errors": 5,
    "ReportChatMessagePayload.errors": 5,
    "NotificationPreferencesPayload.errors": 5,
}


def table_weight(key: str) -> int | None:
    """The table's weight for a bench line: "Type.field" (per call) or "Type.field+item"
    (per item of its list); None when the table has no line."""
    name, _plus, item = key.partition("+")
    weight = FIELD_WEIGHTS.get(name)
    if weight is None:
        return None
    return weight.item if item else weight.call
