"""The GraphQL schema served at /graphql/ (HTTP and websockets): queries, mutations and
the live ``matchUpdates`` subscription, assembled from their modules.

Resolvers are thin: parse the arguments, call ``games.matches.services`` or ``games.matches``
(writes) or ``games.matches.selectors`` (reads) with the caller, render. Errors keep REST's stable
codes: in a mutation payload's ``errors`` list, or in ``extensions.code`` of a query error.
"""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.tools import merge_types

from games.graphql.analysis import AnalysisMutations, AnalysisQueries, AnalysisSubscriptions
from games.graphql.chat import ChatMutations, ChatQueries, ChatSubscriptions
from games.graphql.chat_reports import ChatReportMutations
from games.graphql.concurrency import ExpensiveOperations
from games.graphql.datetime_scalar import UTC_DATETIME
from games.graphql.errors import ServiceErrorCodes
from games.graphql.feed import FeedSubscriptions
from games.graphql.leaving import LeavingMutations, LeavingQueries
from games.graphql.limits import is_limit_refusal, limit_extensions
from games.graphql.lobby import LobbyMutations, LobbyQueries
from games.graphql.mail import MailMutations, MailQueries
from games.graphql.mutations import Mutation
from games.graphql.notifications import NotificationMutations, NotificationQueries
from games.graphql.queries import Query
from games.graphql.quickmatch import QuickMatchMutations, QuickMatchQueries
from games.graphql.ratings import RatingQueries
from games.graphql.records import RecordQueries
from games.graphql.scopes import apply_scopes
from games.graphql.subscriptions import Subscription
from games.graphql.text_inputs import RefuseControlCharacters
from games.graphql.throttling import RateLimits
from infra.api_errors import ApiError


class GameSchema(strawberry.Schema):
    def process_errors(self, errors, execution_context=None) -> None:
        # Service errors (unknown match, bad ply...) are answers to the client, not faults:
        # logging each with its traceback let any client flood the server log (found by
        # fuzzing). Unexpected errors are still logged.
        # Nor are the refusals of an operation's limits (games/graphql/limits.py).
        unexpected = [error for error in errors
                      if not isinstance(error.original_error, ApiError)
                      and not is_limit_refusal(error)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


#: each capability (records, ratings, the lobby, the feed, leaving, analysis) brings its own
#: fields, from its module here (games/graphql/<capability>.py)
AllQueries = merge_types("Query", (Query, RecordQueries, RatingQueries, LobbyQueries,
                                     QuickMatchQueries, LeavingQueries, AnalysisQueries,
                                     ChatQueries, NotificationQueries, MailQueries))
AllMutations = merge_types("Mutation", (Mutation, LobbyMutations, QuickMatchMutations,
                                        LeavingMutations, AnalysisMutations, ChatMutations,
                                        ChatReportMutations, NotificationMutations,
                                        MailMutations))
AllSubscriptions = merge_types("Subscription", (Subscription, FeedSubscriptions,
                                                AnalysisSubscriptions, ChatSubscriptions))
# the scope each root field needs of a credential: games/graphql/scopes.py
apply_scopes(Query=AllQueries, Mutation=AllMutations, Subscription=AllSubscriptions)

schema = GameSchema(
    query=AllQueries,
    scalar_overrides={datetime: UTC_DATETIME},  # REST's format: games/graphql/datetime_scalar.py
    mutation=AllMutations,
    subscription=AllSubscriptions,
    extensions=[
        *limit_extensions(),  # size, depth, aliases, cost and time: games/graphql/limits.py
        RefuseControlCharacters,  # no control character in any argument's text
        ServiceErrorCodes,
        RateLimits,
        ExpensiveOperations,  # after the rate limits: a throttled operation takes no slot
    ],
)
