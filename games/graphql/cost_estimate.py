"""The estimated cost of a GraphQL operation, from its document alone (no SQL, no
resolver): one walk over the document with the schema's types in hand, so that each field
is priced as ``Type.field`` (``field_weights.FIELD_WEIGHTS``: ``Match.view`` is an engine
call, ``Replay.view`` an attribute already built) and multiplied by the sizes of the lists
around it (a page of ``matches`` counts ``limit`` matches, a move log its ``limit``
moves). Fragment spreads are memoised by (fragment, type, page handed down), so nested
spreads cost one visit each however often they are used; a spread inside itself counts
nothing (validation refuses it afterwards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLObjectType,
    GraphQLSchema,
    InlineFragmentNode,
    IntValueNode,
    OperationDefinitionNode,
    OperationType,
    SelectionSetNode,
    VariableNode,
    get_named_type,
)

from games.graphql.field_weights import (
    DEFAULT_WEIGHT,
    FIELD_WEIGHTS,
    LIST_SIZES,
    OWN_PAGE_MAXIMA,
    OWN_PAGES,
    PARENT_PAGES,
    PASSWORD_CHECKS,
)
from games.matches import parsing


@dataclass(frozen=True)
class Estimate:
    """What an operation may cost: ``cost`` in units (field_weights.UNIT_MS each), its
    ``depth`` in fields, and how many password checks (register, login) it holds."""

    cost: int = 0
    depth: int = 0
    password_checks: int = 0

    def __add__(self, other: Estimate) -> Estimate:
        return Estimate(self.cost + other.cost, max(self.depth, other.depth),
                        self.password_checks + other.password_checks)


_NOTHING = Estimate()


class _Walk:
    def __init__(self, schema: GraphQLSchema, document: DocumentNode,
                 variables: dict[str, Any] | None) -> None:
        self.schema = schema
        self.fragments = {d.name.value: d for d in document.definitions
                          if isinstance(d, FragmentDefinitionNode)}
        self.variables = variables or {}
        self.memo: dict[tuple, Estimate] = {}
        self.active: set[str] = set()

    def _object_type(self, name: str | None) -> GraphQLObjectType | None:
        found = self.schema.get_type(name) if name else None
        return found if isinstance(found, GraphQLObjectType) else None

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

    def selection_set(self, selections: SelectionSetNode | None,
                      parent: GraphQLObjectType | None, owner: str | None,
                      page: int | None) -> Estimate:
        """The estimate of a selection set on type ``parent`` (None when unknown: every
        field then costs the default), under the field ``owner`` ("Type.field"), whose
        page size for its PARENT_PAGES children is ``page``."""
        if selections is None:
            return _NOTHING
        total = _NOTHING
        for selection in selections.selections:
            if isinstance(selection, FieldNode):
                total += self.field(selection, parent, owner, page)
            elif isinstance(selection, InlineFragmentNode):
                condition = selection.type_condition
                on = self._object_type(condition.name.value) if condition else parent
                total += self.selection_set(selection.selection_set, on, owner, page)
            elif isinstance(selection, FragmentSpreadNode):
                total += self.spread(selection.name.value, owner, page)
        return total

    def spread(self, name: str, owner: str | None, page: int | None) -> Estimate:
        fragment = self.fragments.get(name)
        if fragment is None or name in self.active:
            return _NOTHING  # unknown or cyclic: the standard validation refuses it
        key = (name, owner, page)
        if key not in self.memo:
            self.active.add(name)
            on = self._object_type(fragment.type_condition.name.value)
            self.memo[key] = self.selection_set(fragment.selection_set, on, owner, page)
            self.active.discard(name)
        return self.memo[key]

    def field(self, node: FieldNode, parent: GraphQLObjectType | None, owner: str | None,
              page: int | None) -> Estimate:
        name = node.name.value
        if name.startswith("__"):  # introspection: small, fixed, and not counted in depth
            inner = self.selection_set(node.selection_set, None, None, None)
            return Estimate(1 + inner.cost, 0, 0)
        definition = parent.fields.get(name) if parent is not None else None
        key = f"{parent.name}.{name}" if definition is not None else None
        weight = FIELD_WEIGHTS.get(key, DEFAULT_WEIGHT)
        size = self._size(node, key, definition, owner, page)
        own_page = None
        for page_owner, argument, default in PARENT_PAGES.values():
            if page_owner == key:
                own_page = self._argument(node, argument) or default
        child_type = (self._object_type(get_named_type(definition.type).name)
                      if definition is not None else None)
        inner = self.selection_set(node.selection_set, child_type, key, own_page)
        return Estimate(weight.call + size * (weight.item + inner.cost), 1 + inner.depth,
                        (key in PASSWORD_CHECKS) + size * inner.password_checks)

    def _size(self, node: FieldNode, key: str | None, definition, owner: str | None,
              page: int | None) -> int:
        """How many items the field returns at most (1 for a single value)."""
        if key in PARENT_PAGES:
            page_owner, _argument, default = PARENT_PAGES[key]
            return page if page is not None and owner == page_owner else default
        if key in OWN_PAGES:
            argument, default = OWN_PAGES[key]
            asked = self._argument(node, argument) or default
            return min(asked, OWN_PAGE_MAXIMA.get(key, asked))
        if key in LIST_SIZES:
            return LIST_SIZES[key]
        # a list the tables do not bound holds scalars (tests/games/graphql/
        # test_field_weights.py checks it): their reading is the parent's work
        return 1


def estimate(schema: GraphQLSchema, document: DocumentNode, operation_name: str | None,
             variables: dict[str, Any] | None) -> Estimate:
    """The estimate of the operation that would run (all of them when the name matches
    none: validation refuses that anyway, after us)."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = [op for op in operations if op.name and op.name.value == operation_name]
    walker = _Walk(schema, document, variables)
    roots = {OperationType.QUERY: schema.query_type,
             OperationType.MUTATION: schema.mutation_type,
             OperationType.SUBSCRIPTION: schema.subscription_type}
    total = _NOTHING
    for operation in chosen or operations:
        total += walker.selection_set(operation.selection_set, roots.get(operation.operation),
                                      None, None)
    return total


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
