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
   over ``MAX_DEPTH`` or an estimated cost over ``MAX_COST``. The estimate is the number
   of fields the operation may resolve, each weighted by its work (``FIELD_WEIGHTS``: a
   view, legal moves, a replay) and multiplied by the sizes of the lists around it: a
   page of matches counts ``limit`` matches, a move log its ``limit`` moves. A refusal
   costs a few milliseconds (bench/graphql_limits_bench.py);
4. strawberry's ``QueryDepthLimiter`` and ``MaxAliasesLimiter`` (``MAX_ALIASES``) run
   with the standard validation, on documents the cost rule has already bounded;
5. ``Deadline``: a query or mutation still resolving fields after ``TIMEOUT_SECONDS``
   gets ``timeout`` errors for every field not yet started (subscriptions are exempt:
   they are meant to stay open).

Refusals are GraphQL errors with a stable ``extensions.code``: ``query_too_large``,
``query_too_deep``, ``query_too_costly``, ``too_many_aliases``, ``timeout``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLError,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
)
from strawberry.extensions import (
    MaxAliasesLimiter,
    MaxTokensLimiter,
    QueryDepthLimiter,
    SchemaExtension,
)

from games.matches import parsing

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
MAX_COST = 5_000

#: the work of a field beyond reading a value (1): engine calls, extra SQL queries
FIELD_WEIGHTS = {
    "view": 10,  # engine.view of the match state
    "legalMoves": 10,  # engine.legal_moves
    "log": 5,  # a query on the move log
    "events": 10,  # the log and a view
    "result": 5,
    "replay": 50,  # rebuilds the state from the whole log (about 8 ms for a Han game)
    "match": 2,
    "matches": 5,  # a count and a page
    "maps": 20,  # every board of the catalogue
    "matchUpdates": 20,
}
#: (field, child) -> (argument of ``field`` giving the list size, its default): a page of
#: matches holds ``limit`` results; a list field's own ``limit`` counts for its items
PAGE_ARGUMENTS = {
    ("matches", "results"): "limit",
    ("events", "moves"): "limit",
}
LIST_ARGUMENTS = {"log": "limit"}
#: lists whose size the schema bounds: seats, results of a match, the catalogue
LIST_SIZES = {"seats": 5, "results": 5, "games": 2, "moves": parsing.MAX_PAGE_SIZE,
              "toAct": 5}
DEFAULT_LIST_SIZE = {"limit": parsing.MAX_PAGE_SIZE}


def _timeout_seconds() -> float:
    return float(getattr(settings, "GRAPHQL_TIMEOUT_SECONDS", 5.0))


class QueryRefused(GraphQLError):
    def __init__(self, message: str, code: str, details: dict[str, Any]) -> None:
        super().__init__(message, extensions={"code": code, "details": details})


def query_too_large(query: Any) -> QueryRefused | None:
    """The refusal of a query text over MAX_QUERY_CHARS (checked before parsing)."""
    if isinstance(query, str) and len(query) > MAX_QUERY_CHARS:
        return QueryRefused(
            f"The query has {len(query)} characters; at most {MAX_QUERY_CHARS} are "
            "accepted.", "query_too_large", {"max_chars": MAX_QUERY_CHARS},
        )
    return None


# -- the cost estimate ------------------------------------------------------------------------
class _Estimate:
    """One pass over a document: (cost, depth) of each selection set, with fragment
    spreads memoised by (fragment, list size handed down), so nested spreads cost one
    visit each however often they are used; a spread inside itself counts nothing."""

    def __init__(self, document: DocumentNode, variables: dict[str, Any] | None) -> None:
        self.fragments = {d.name.value: d for d in document.definitions
                          if isinstance(d, FragmentDefinitionNode)}
        self.variables = variables or {}
        self.memo: dict[tuple[str, str | None, int | None], tuple[int, int]] = {}
        self.active: set[str] = set()

    def _argument(self, node: FieldNode, name: str) -> int | None:
        """An integer argument of ``node``: a literal or a variable's value, bounded to
        [1, MAX_PAGE_SIZE] (the resolvers refuse anything else); None when absent."""
        for argument in node.arguments or ():
            if argument.name.value != name:
                continue
            value: Any = None
            if isinstance(argument.value, IntValueNode):
                value = argument.value.value
            elif isinstance(argument.value, VariableNode):
                value = self.variables.get(argument.value.name.value)
            try:
                number = int(value)
            except (TypeError, ValueError):
                return parsing.MAX_PAGE_SIZE  # refused later: count the worst
            return min(max(number, 1), parsing.MAX_PAGE_SIZE)
        return None

    def selection_set(self, selections: SelectionSetNode | None, parent: str | None,
                      page: int | None) -> tuple[int, int]:
        """(cost, depth) of a selection set under field ``parent``, whose page size (for
        PAGE_ARGUMENTS children) is ``page``."""
        if selections is None:
            return 0, 0
        cost = depth = 0
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                field_cost, field_depth = self.field(selection, parent, page)
            elif isinstance(selection, InlineFragmentNode):
                field_cost, field_depth = self.selection_set(selection.selection_set,
                                                             parent, page)
            elif isinstance(selection, FragmentSpreadNode):
                field_cost, field_depth = self.spread(selection.name.value, parent, page)
            else:
                continue
            cost += field_cost
            depth = max(depth, field_depth)
        return cost, depth

    def spread(self, name: str, parent: str | None, page: int | None) -> tuple[int, int]:
        fragment = self.fragments.get(name)
        if fragment is None or name in self.active:
            return 0, 0  # unknown or cyclic: the standard validation refuses it
        key = (name, parent, page)
        if key not in self.memo:
            self.active.add(name)
            self.memo[key] = self.selection_set(fragment.selection_set, parent, page)
            self.active.discard(name)
        return self.memo[key]

    def field(self, node: FieldNode, parent: str | None, page: int | None) -> tuple[int, int]:
        name = node.name.value
        if name.startswith("__"):  # introspection: small, fixed, and not counted in depth
            cost, _depth = self.selection_set(node.selection_set, name, None)
            return 1 + cost, 0
        size = 1
        if (parent, name) in PAGE_ARGUMENTS:
            size = page if page is not None else parsing.DEFAULT_PAGE_SIZE
        elif name in LIST_ARGUMENTS:
            size = self._argument(node, LIST_ARGUMENTS[name]) or DEFAULT_LIST_SIZE["limit"]
        elif name in LIST_SIZES:
            size = LIST_SIZES[name]
        own_page = None
        for (page_parent, _child), argument in PAGE_ARGUMENTS.items():
            if page_parent == name:
                own_page = self._argument(node, argument)
                if own_page is None:
                    own_page = (parsing.DEFAULT_PAGE_SIZE if name == "matches"
                                else parsing.MAX_PAGE_SIZE)
        children_cost, children_depth = self.selection_set(node.selection_set, name, own_page)
        # A list of scalars (toAct, legalMoves' moves) is one value of its parent's work.
        return FIELD_WEIGHTS.get(name, 1) + size * children_cost, 1 + children_depth


def count_fields(document: DocumentNode) -> int:
    """Fields as written in the document, every definition once (no expansion)."""
    count = 0
    pending = [d.selection_set for d in document.definitions
               if isinstance(d, (OperationDefinitionNode, FragmentDefinitionNode))]
    while pending:
        selection_set = pending.pop()
        if selection_set is None:
            continue
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                count += 1
                pending.append(selection.selection_set)
            elif isinstance(selection, InlineFragmentNode):
                pending.append(selection.selection_set)
    return count


def estimate(document: DocumentNode, operation_name: str | None,
             variables: dict[str, Any] | None) -> tuple[int, int]:
    """(estimated cost, depth) of the operation that would run (all of them when the name
    matches none: validation refuses that anyway, after us)."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = [op for op in operations if op.name and op.name.value == operation_name]
    walker = _Estimate(document, variables)
    cost = depth = 0
    for operation in chosen or operations:
        op_cost, op_depth = walker.selection_set(operation.selection_set, None, None)
        cost, depth = cost + op_cost, max(depth, op_depth)
    return cost, depth


class QueryCost(SchemaExtension):
    """Refuse too deep or too costly operations before the standard validation runs."""

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
            fields = count_fields(document)
            cost, depth = (0, 0) if fields > MAX_FIELDS else estimate(
                document, context.operation_name, context.variables)
            if fields > MAX_FIELDS:
                refusal = QueryRefused(
                    f"The document has {fields} fields; at most {MAX_FIELDS} are accepted.",
                    "query_too_large", {"fields": fields, "max_fields": MAX_FIELDS})
            elif depth > MAX_DEPTH:
                refusal = QueryRefused(
                    f"The operation is {depth} fields deep; at most {MAX_DEPTH} are "
                    "accepted.", "query_too_deep", {"depth": depth, "max_depth": MAX_DEPTH})
            elif cost > MAX_COST:
                refusal = QueryRefused(
                    f"The operation's estimated cost is {cost}; at most {MAX_COST} is "
                    "accepted. Ask for fewer fields, smaller pages (limit) or fewer "
                    "views and logs per request.", "query_too_costly",
                    {"cost": cost, "max_cost": MAX_COST})
            else:
                refusal = None
            if refusal is not None:
                # strawberry skips its validation when errors are already set
                context.pre_execution_errors = [refusal]
        yield


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
                f"The operation ran past the {_timeout_seconds():g} s limit; this field "
                "was not resolved.", "timeout", {"timeout_seconds": _timeout_seconds()})
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
