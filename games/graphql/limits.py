"""What one GraphQL operation may cost (issue 9, defect 2).

An anonymous request of 20 aliases of ``matches(limit: 100) { results { view log {...}
events {...} } }`` used to take 20-30 s and 12-14 MB, and a 2,000-field query was refused
only after 5 s of validation. Every bound below refuses before execution, and the costly
ones before graphql-core's own validation (whose overlapping-fields rule is quadratic, and
strawberry's depth rule exponential in nested fragment spreads):

1. the query text: at most ``MAX_QUERY_CHARS`` characters (the HTTP view and the websocket
   check it before anything parses it; the body as a whole is capped at 1 MiB, 413);
2. parsing stops after ``MAX_TOKENS`` tokens (strawberry's ``MaxTokensLimiter``);
3. ``QueryCost``, our rule, walks the document once (fragments memoised) before the
   standard validation and refuses more than ``MAX_FIELDS`` fields as written, a depth
   over ``MAX_DEPTH``, an estimated cost over ``MAX_COST`` (``MAX_WORK_MS``, 250 ms of
   work measured under contention, in units of ``UNIT_MS``) or more than
   ``MAX_PASSWORD_CHECKS`` register or login. The estimate (games/graphql/
   cost_estimate.py) prices every field the operation may resolve by its measured work
   (games/graphql/field_weights.py: a profile, a replay, a view, a plain attribute),
   multiplied by the sizes of the lists around it: a page of matches counts ``limit``
   matches, a move log its ``limit`` moves. A refusal costs a few milliseconds
   (bench/graphql_limits_bench.py);
4. strawberry's ``QueryDepthLimiter`` and ``MaxAliasesLimiter`` (``MAX_ALIASES``) run
   with the standard validation, on documents the cost rule has already bounded;
5. ``Deadline``: a query or mutation still resolving fields after ``TIMEOUT_SECONDS``
   gets ``timeout`` errors for every field not yet started (subscriptions are exempt:
   they are meant to stay open).

Refusals are GraphQL errors with a stable ``extensions.code``: ``query_too_large``,
``query_too_deep``, ``query_too_costly``, ``too_many_aliases``, ``timeout``. How many
expensive operations run at once is games/graphql/concurrency.py's (``too_many_concurrent``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from graphql import GraphQLError, OperationType
from strawberry.extensions import (
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from games.graphql.cost_estimate import Estimate, count_fields, estimate
from games.graphql.field_weights import UNIT_MS

logger = logging.getLogger(__name__)

MAX_QUERY_CHARS = 10_000
#: the introspection query GraphiQL sends is about 180 tokens
MAX_TOKENS = 1_000
#: our deepest meaningful path is 5 (matches results events moves move); introspection's
#: ``ofType`` chains are not counted (strawberry ignores ``__`` fields)
MAX_DEPTH = 10
MAX_ALIASES = 20
#: fields written in the document (fragments once): the standard validation compares
#: same-named fields pairwise, so thousands of them cost it seconds
MAX_FIELDS = 500
#: the work one operation may ask for (issue 39), in milliseconds of a web process's time
#: as bench/graphql_field_costs.py measures it: with a competing process sending the same
#: probes, as on a busy tier, since the weights are measured so
MAX_WORK_MS = 250
#: the cap in units: MAX_WORK_MS / field_weights.UNIT_MS (0.05 ms measured), so 5,000
MAX_COST = round(MAX_WORK_MS / UNIT_MS)

#: register and login hash a password each (field_weights.PASSWORD_CHECKS)
MAX_PASSWORD_CHECKS = 1


def _timeout_seconds() -> float:
    return float(getattr(settings, "GRAPHQL_TIMEOUT_SECONDS", 5.0))


class QueryRefused(GraphQLError):
    def __init__(self, message: str, code: str, details: dict[str, Any]) -> None:
        super().__init__(message, extensions={"code": code, "details": details})


def query_too_large(query: Any) -> QueryRefused | None:
    """The refusal of a query text over MAX_QUERY_CHARS (checked before parsing)."""
    if isinstance(query, str) and len(query) > MAX_QUERY_CHARS:
        return QueryRefused(
            _("The query has %(count)s characters; at most %(max)s are accepted.")
            % {"count": len(query), "max": MAX_QUERY_CHARS}, "query_too_large",
            {"max_chars": MAX_QUERY_CHARS},
        )
    return None


#: where QueryCost leaves its estimate on the operation's execution context (one per
#: operation; the GraphQL context may be a websocket's, shared by its operations)
_ESTIMATE = "game_cost_estimate"


def recorded_estimate(execution_context) -> Estimate | None:
    """The estimate QueryCost made of this operation (None if it made none: the operation
    was refused before), for the extensions after it (games/graphql/concurrency.py)."""
    return getattr(execution_context, _ESTIMATE, None)


class QueryCost(SchemaExtension):
    """Refuse too large, deep or costly operations before the standard validation runs."""

    def on_operation(self) -> Iterator[None]:
        yield
        # Runs after ServiceErrorCodes (extensions unwind in reverse): give strawberry's
        # limiters' refusals their own codes instead of graphql_validation_failed.
        result = self.execution_context.result
        if result is None or not getattr(result, "errors", None):
            return
        result.errors = [_with_limit_code(error) for error in result.errors]

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            refusal = self._refusal(context, document)
            if refusal is not None:
                # strawberry skips its validation when errors are already set
                context.pre_execution_errors = [refusal]
        yield

    def _refusal(self, context, document) -> QueryRefused | None:
        fields = count_fields(document)
        if fields > MAX_FIELDS:
            return QueryRefused(
                _("The document has %(count)s fields; at most %(max)s are accepted.")
                % {"count": fields, "max": MAX_FIELDS},
                "query_too_large", {"fields": fields, "max_fields": MAX_FIELDS})
        found = estimate(context.schema._schema, document, context.operation_name,
                         context.variables)
        setattr(context, _ESTIMATE, found)
        if found.depth > MAX_DEPTH:
            return QueryRefused(
                _("The operation is %(depth)s fields deep; at most %(max)s are accepted.")
                % {"depth": found.depth, "max": MAX_DEPTH}, "query_too_deep",
                {"depth": found.depth, "max_depth": MAX_DEPTH})
        if found.cost > MAX_COST:
            return QueryRefused(
                _("The operation's estimated cost is %(cost)s (about %(ms)s ms); at most "
                  "%(max)s is accepted. Ask for fewer fields, smaller pages (limit) or fewer "
                  "views, logs, profiles, replays and records per request.")
                % {"cost": found.cost, "ms": f"{found.cost * UNIT_MS:.0f}", "max": MAX_COST},
                "query_too_costly",
                {"cost": found.cost, "max_cost": MAX_COST})
        if found.password_checks > MAX_PASSWORD_CHECKS:
            return QueryRefused(
                _("The operation holds %(count)s password checks (register, login); at most "
                  "%(max)s is accepted.") % {"count": found.password_checks,
                                             "max": MAX_PASSWORD_CHECKS}, "query_too_costly",
                {"password_checks": found.password_checks,
                 "max_password_checks": MAX_PASSWORD_CHECKS})
        return None


# -- the deadline -----------------------------------------------------------------------------
class Deadline(SchemaExtension):
    """Stop resolving fields of a query or mutation after TIMEOUT_SECONDS."""

    deadline: float | None = None
    timed_out = False

    def on_execute(self) -> Iterator[None]:
        self.deadline = time.monotonic() + _timeout_seconds()
        yield

    def resolve(self, _next, root, info, *args, **kwargs):
        # A subscription's fields resolve at every push for as long as it stays open.
        if info.operation.operation == OperationType.SUBSCRIPTION:
            return _next(root, info, *args, **kwargs)
        if self.deadline is not None and time.monotonic() > self.deadline:
            if not self.timed_out:  # one line per operation, not one per unresolved field
                self.timed_out = True
                logger.warning("GraphQL operation %s ran past %s s",
                               self.execution_context.operation_name or "(anonymous)",
                               _timeout_seconds())
            raise QueryRefused(
                _("The operation ran past the %(seconds)s s limit; this field was not "
                  "resolved.") % {"seconds": f"{_timeout_seconds():g}"}, "timeout",
                {"timeout_seconds": _timeout_seconds()})
        return _next(root, info, *args, **kwargs)


# strawberry's own refusals carry no code: ours, by their messages
def code_of_limit_error(message: str) -> str | None:
    """The stable code of a refusal by one of strawberry's limiters, else None."""
    if "Document contains more than" in message:
        return "query_too_large"
    if "exceeds maximum operation depth" in message:
        return "query_too_deep"
    if "aliases found. Allowed:" in message:
        return "too_many_aliases"
    return None


def is_limit_refusal(error: GraphQLError) -> bool:
    """A refusal by one of the limits here: an answer to the client, not a fault to log."""
    return (isinstance(error, QueryRefused) or isinstance(error.original_error, QueryRefused)
            or code_of_limit_error(error.message) is not None)


def _with_limit_code(error: GraphQLError) -> GraphQLError:
    code = code_of_limit_error(error.message)
    if code is None or (error.extensions or {}).get("code") not in (
            None, "graphql_validation_failed"):
        return error
    return GraphQLError(error.message, nodes=error.nodes, source=error.source,
                        positions=error.positions, path=error.path,
                        extensions={"code": code})


def limit_extensions() -> list:
    """The schema's extensions that bound an operation, in the order they must run."""
    return [
        QueryCost,  # first: its refusal pre-empts the costlier validation below
        lambda: MaxTokensLimiter(max_token_count=MAX_TOKENS),
        lambda: QueryDepthLimiter(max_depth=MAX_DEPTH),
        lambda: MaxAliasesLimiter(max_alias_count=MAX_ALIASES),
        Deadline,
    ]
