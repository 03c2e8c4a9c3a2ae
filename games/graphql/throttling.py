"""The REST rate limits (infra/throttles.py) for GraphQL operations, over HTTP and the
websocket alike.

Before an operation executes, each top-level mutation field counts once in its scope
(``register``, ``login``, ``revokeToken``, ``deleteAccount``: ``auth``; every other
mutation: ``move``), so aliases cannot multiply a budget; a query counts once as a read.
An app's token counts once more, against its app (infra/throttles.py, ``app``).
If any count is over its limit, nothing executes: the answer is one error with
``extensions.code`` ``throttled`` and ``details.retry_after_seconds``, over HTTP with
status 429 and a ``Retry-After`` header.
Subscriptions are not counted (one socket, one subscription: nothing to repeat cheaply).
"""

from __future__ import annotations

from collections.abc import Iterator

from graphql import (
    ExecutionResult,
    FieldNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    OperationType,
)
from graphql.utilities import get_operation_ast
from strawberry.extensions import SchemaExtension

from infra import throttles
from infra.api_errors import Throttled

AUTH_MUTATIONS = {"register", "login", "revokeToken", "deleteAccount"}


def _top_level_fields(document, operation) -> list[str]:
    fragments = {d.name.value: d for d in document.definitions
                 if getattr(d, "kind", "") == "fragment_definition"}
    names, pending = [], list(operation.selection_set.selections)
    while pending:
        node = pending.pop(0)
        if isinstance(node, FieldNode):
            if not node.name.value.startswith("__"):
                names.append(node.name.value)
        elif isinstance(node, InlineFragmentNode):
            pending.extend(node.selection_set.selections)
        elif isinstance(node, FragmentSpreadNode) and node.name.value in fragments:
            pending.extend(fragments[node.name.value].selection_set.selections)
    return names


def caller_address(context) -> str:
    """The caller's address, over HTTP or the websocket, as the rate limits see it."""
    return throttles.client_address(request_meta(context))


def request_meta(context) -> dict:
    if context.ws is not None:
        # a websocket consumer: the peer and X-Forwarded-For from its ASGI scope, so that
        # behind NUM_PROXIES proxies each caller has its own count, not the proxy's
        return throttles.scope_meta(context.ws.scope)
    return context.request.META


class RateLimits(SchemaExtension):
    def on_execute(self) -> Iterator[None]:
        wait = self._count()
        if wait is not None:
            self._refuse(throttles.retry_after_seconds(wait))
        yield

    def _count(self) -> float | None:
        ctx = self.execution_context
        operation = get_operation_ast(ctx.graphql_document, ctx.operation_name)
        if operation is None:
            return None
        user = ctx.context.user
        ident = throttles.caller_ident(user, request_meta(ctx.context))
        if operation.operation == OperationType.MUTATION:
            scopes = [throttles.AUTH if name in AUTH_MUTATIONS else throttles.MOVE
                      for name in _top_level_fields(ctx.graphql_document, operation)]
        elif operation.operation == OperationType.QUERY:
            scopes = [throttles.read_scope(user)]
        else:
            return None
        for scope in scopes:
            wait = throttles.hit(scope, ident)
            if wait is not None:
                return wait
        return throttles.hit_app(ctx.context.auth)  # an app's token: its app's limit too

    def _refuse(self, seconds: int) -> None:
        refusal = Throttled(seconds)
        self.execution_context.result = ExecutionResult(
            # the code set here as well: the websocket path formats this result as it is
            data=None, errors=[GraphQLError(
                refusal.message, original_error=refusal,
                extensions={"code": refusal.code, "details": refusal.details},
            )]
        )
        context = self.execution_context.context
        if context.ws is None:
            context.response.status_code = 429
            context.response["Retry-After"] = str(seconds)
