"""Control characters in GraphQL arguments, refused before execution (issue 21).

``player(username: "a\\u0000b")`` sent a NUL byte to PostgreSQL, which refused it (a
masked ``server_error``); ``joinByInviteCode``, ``createPrivateMatch(invite:)`` and
``inviteToMatch`` did the same. The rule is REST's (infra/text_inputs.py): no text a
client sends may hold U+0000-U+001F or U+007F. Here every argument of the operation to
run is read once before validation, wherever its text comes from:

- a literal in the document: strings (block strings too), inside lists and input
  objects (``botSeats: [{kind: "..."}]``) and ``JSON`` literals (``options: {map: ...}``);
- a variable: its whole value, object keys included (a ``JSON`` move, a list of names),
  or its declared default when the request leaves it out;
- arguments inside fragments, followed from the operation.

A refusal is one GraphQL error, ``extensions.code`` ``invalid_input``, whose details name
the argument (``usernames.1``, ``move.type``) with the code ``control_characters``; nothing
resolves. The same schema serves the websocket, so subscriptions and the mutations sent
over it are checked too. ``MULTILINE_ARGUMENTS`` may hold TAB, LF and CR.

The same walk refuses an Int literal of more than infra/numbers.py's MAX_DIGITS digits
(issue 39): graphql-core calls ``int()`` on it, which raises past 4,300 digits (a masked
``server_error``). The refusal is ``invalid_input`` naming the argument, with GraphQL's
Int range. (A variable's number is read by the body's JSON decoder, infra/parsers.py.)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    InlineFragmentNode,
    IntValueNode,
    ListValueNode,
    ObjectValueNode,
    OperationDefinitionNode,
    SelectionSetNode,
    StringValueNode,
    ValueNode,
    VariableNode,
)
from strawberry.extensions import SchemaExtension

from games.graphql.limits import QueryRefused
from infra.numbers import MAX_DIGITS, InvalidNumber, range_message, shown
from infra.text_inputs import ControlCharacters, find_control_characters

#: GraphQL's Int: the range of every Int argument
GRAPHQL_INT = (-(2**31), 2**31 - 1)

#: (field, argument) of free text that may span lines: the one note of the API
MULTILINE_ARGUMENTS = {("abortMatch", "reason")}


#: what is wrong with an argument: a control character, or an Int literal too long to read
CONTROL, NUMBER = "control", "number"


class _Arguments:
    """Finds the first argument text with a control character, or Int literal longer than
    infra/numbers.py reads, in one operation."""

    def __init__(self, document: DocumentNode, variables: dict[str, Any] | None) -> None:
        self.fragments = {d.name.value: d for d in document.definitions
                          if isinstance(d, FragmentDefinitionNode)}
        self.variables = variables or {}
        self.defaults: dict[str, ValueNode] = {}
        self.seen: set[str] = set()
        self.literal = ""  # the Int literal found too long

    def operation(self, operation: OperationDefinitionNode) -> tuple[str, bool, str] | None:
        for definition in operation.variable_definitions or ():
            if definition.default_value is not None:
                self.defaults[definition.variable.name.value] = definition.default_value
        return self.selections(operation.selection_set)

    def selections(self, selection_set: SelectionSetNode | None
                   ) -> tuple[str, bool, str] | None:
        """(path, multiline, CONTROL or NUMBER) of the first offending argument below, or
        None."""
        pending = [selection_set]
        while pending:
            current = pending.pop()
            if current is None:
                continue
            for selection in current.selections:
                if isinstance(selection, FieldNode):
                    for argument in selection.arguments or ():
                        name = argument.name.value
                        multiline = (selection.name.value, name) in MULTILINE_ARGUMENTS
                        found = self.value(argument.value, name, multiline)
                        if found is not None:
                            return found[0], multiline, found[1]
                    pending.append(selection.selection_set)
                elif isinstance(selection, InlineFragmentNode):
                    pending.append(selection.selection_set)
                elif isinstance(selection, FragmentSpreadNode):
                    name = selection.name.value
                    if name not in self.seen and name in self.fragments:
                        self.seen.add(name)  # each fragment once (cycles: validation's)
                        pending.append(self.fragments[name].selection_set)
        return None

    def value(self, node: ValueNode, path: str, multiline: bool) -> tuple[str, str] | None:
        allowed = (path.split(".", 1)[0],) if multiline else ()
        pending = [(node, path)]
        while pending:
            current, where = pending.pop()
            if isinstance(current, IntValueNode):
                # graphql-core calls int() on it: past 4,300 digits a ValueError, a
                # masked server_error (issue 39)
                if len(current.value.lstrip("-")) > MAX_DIGITS:
                    self.literal = current.value
                    return where, NUMBER
                found = None
            elif isinstance(current, StringValueNode):
                found = find_control_characters(current.value, where, allowed)
            elif isinstance(current, VariableNode):
                name = current.name.value
                if name in self.variables:
                    found = find_control_characters(self.variables[name], where, allowed)
                else:
                    found = None
                    if name in self.defaults:
                        pending.append((self.defaults[name], where))
            elif isinstance(current, ListValueNode):
                found = None
                pending.extend((item, f"{where}.{index}")
                               for index, item in enumerate(current.values))
            elif isinstance(current, ObjectValueNode):
                found = None
                pending.extend((field.value, f"{where}.{field.name.value}")
                               for field in current.fields)
            else:
                found = None
            if found is not None:
                return found, CONTROL
        return None


def first_control_character(document: DocumentNode, operation_name: str | None,
                            variables: dict[str, Any] | None
                            ) -> tuple[str, bool, str, str] | None:
    """(path, multiline, CONTROL or NUMBER, the Int literal if NUMBER) of the first
    argument text holding a control character, or Int literal too long to read, in the
    operation that would run (every operation when the name matches none), or None."""
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    chosen = [op for op in operations if op.name and op.name.value == operation_name]
    arguments = _Arguments(document, variables)
    for operation in chosen or operations:
        found = arguments.operation(operation)
        if found is not None:
            return found + (arguments.literal,)
    return None


class RefuseControlCharacters(SchemaExtension):
    """Refuse an operation whose arguments hold a control character, before validation."""

    def on_validate(self) -> Iterator[None]:
        context = self.execution_context
        document = context.graphql_document
        if document is not None and context.pre_execution_errors is None:
            found = first_control_character(document, context.operation_name,
                                            context.variables)
            if found is not None:
                where, multiline, problem, literal = found
                refusal = (ControlCharacters(where, multiline) if problem == CONTROL
                           else InvalidNumber(range_message(where, *GRAPHQL_INT), details={
                               where: shown(literal), "min": GRAPHQL_INT[0],
                               "max": GRAPHQL_INT[1]}))
                # strawberry skips its validation when errors are already set; refused
                # before execution as the limits refuse (an answer, not a fault to log)
                context.pre_execution_errors = [
                    QueryRefused(refusal.message, refusal.code, refusal.details)]
        yield
