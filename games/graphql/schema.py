"""The GraphQL schema served at /graphql/ (HTTP and websockets): queries, mutations and
the live ``matchUpdates`` subscription, assembled from their modules.

Resolvers are thin: parse the arguments, call ``games.services`` (writes) or
``games.selectors`` (reads) with the caller, render. Errors keep REST's stable codes: in a
mutation payload's ``errors`` list, or in ``extensions.code`` of a query error.
"""

from __future__ import annotations

import strawberry
from strawberry.extensions import MaxAliasesLimiter

from config.api_errors import ApiError
from games.graphql.errors import ServiceErrorCodes
from games.graphql.mutations import Mutation
from games.graphql.queries import Query
from games.graphql.subscriptions import Subscription

#: A replay or a move log costs real work: one operation may not repeat them by the
#: hundred through aliases. (Depth needs no limit: the schema has no cycles.)
MAX_ALIASES = 20

class GameSchema(strawberry.Schema):
    def process_errors(self, errors, execution_context=None) -> None:
        # Service errors (unknown match, bad ply...) are answers to the client, not faults:
        # logging each with its traceback let any client flood the server log (found by
        # fuzzing). Unexpected errors are still logged.
        unexpected = [error for error in errors
                      if not isinstance(error.original_error, ApiError)]
        if unexpected:
            super().process_errors(unexpected, execution_context)


schema = GameSchema(
    query=Query,
    mutation=Mutation,
    subscription=Subscription,
    extensions=[
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        ServiceErrorCodes,
    ],
)
