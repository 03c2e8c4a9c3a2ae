"""Control characters in every text argument of the GraphQL API (issue 21, item 4).

``player(username: "a\\u0000b")``, ``joinByInviteCode``, ``createPrivateMatch(invite:)`` and
``inviteToMatch`` sent a NUL byte to PostgreSQL, which refused it (psycopg ``DataError``,
a masked ``server_error``). Now every string argument, every ``ID`` and every string
inside a ``JSON`` value or an input object, written in the document or sent as a
variable, is checked before execution (games/graphql/text_inputs.py, with
infra/text_inputs.py's rule): one holding U+0000-U+001F or U+007F is a GraphQL error with
``extensions.code`` ``invalid_input`` naming the argument, and nothing runs.

The cases are read from the schema: every argument of every query and mutation that can
hold text, so a field added later is covered without a line here.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from graphql import (
    GraphQLInputObjectType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLScalarType,
    get_named_type,
)

from games.graphql.schema import schema
from games.matches.models import Match
from tests.games.graphql.support import gql, start_match
from tests.games.support import row_counts

pytestmark = pytest.mark.django_db

BAD = "a\x00b"
TEXT_SCALARS = {"String", "ID", "JSON"}


def _holds_text(graphql_type) -> bool:
    named = get_named_type(graphql_type)
    if isinstance(named, GraphQLInputObjectType):
        return any(_holds_text(field.type) for field in named.fields.values())
    return isinstance(named, GraphQLScalarType) and named.name in TEXT_SCALARS


def _bad_value(graphql_type):
    """A value of ``graphql_type`` with BAD in it, and the path to BAD below the argument."""
    if isinstance(graphql_type, GraphQLNonNull):
        return _bad_value(graphql_type.of_type)
    if isinstance(graphql_type, GraphQLList):
        value, path = _bad_value(graphql_type.of_type)
        return [value], f".0{path}"
    if isinstance(graphql_type, GraphQLInputObjectType):
        value, path = {}, None
        for name, field in graphql_type.fields.items():
            if path is None and _holds_text(field.type):
                value[name], below = _bad_value(field.type)
                path = f".{name}{below}"
            else:
                value[name] = _good_value(field.type)
        return value, path
    if graphql_type.name == "JSON":
        return {"type": BAD}, ".type"
    return BAD, ""


def _good_value(graphql_type):
    named = get_named_type(graphql_type)
    if isinstance(graphql_type, GraphQLNonNull) and isinstance(graphql_type.of_type,
                                                               GraphQLList):
        return []
    if isinstance(named, GraphQLInputObjectType):
        return {name: _good_value(field.type) for name, field in named.fields.items()}
    return {"Int": 1, "Boolean": True, "String": "han", "ID": "1", "JSON": {}}.get(
        named.name, "1")


def _text_arguments() -> list:
    """(operation kind, field, argument) for every query and mutation argument that can
    hold text."""
    graphql_schema = schema._schema
    cases = []
    for kind, root in (("query", graphql_schema.query_type),
                       ("mutation", graphql_schema.mutation_type)):
        for field_name, field in root.fields.items():
            for argument_name, argument in field.args.items():
                if _holds_text(argument.type):
                    cases.append((kind, field_name, argument_name))
    return cases


TEXT_ARGUMENTS = _text_arguments()


def _operation(kind: str, field_name: str, argument_name: str) -> tuple[str, dict, str]:
    """The operation sending BAD in ``argument_name`` as a variable; its variables; the
    path the error must name."""
    graphql_schema = schema._schema
    root = graphql_schema.query_type if kind == "query" else graphql_schema.mutation_type
    field = root.fields[field_name]
    declared, passed, variables = [], [], {}
    path = argument_name
    for name, argument in field.args.items():
        if name == argument_name:
            variables[name], below = _bad_value(argument.type)
            path += below
        elif isinstance(argument.type, GraphQLNonNull):
            variables[name] = _good_value(argument.type)
        else:
            continue
        declared.append(f"${name}: {argument.type}")
        passed.append(f"{name}: ${name}")
    selection = " { __typename }" if isinstance(get_named_type(field.type),
                                               GraphQLObjectType) else ""
    query = (f"{kind} Probe({', '.join(declared)}) "
             f"{{ {field_name}({', '.join(passed)}){selection} }}")
    return query, variables, path


def _assert_refused(body: dict, path: str) -> None:
    assert body.get("data") is None, body
    error, = body["errors"]
    assert error["extensions"]["code"] == "invalid_input", error
    details = error["extensions"]["details"]
    assert list(details) == [path], details
    assert details[path][0]["code"] == "control_characters"
    assert "\x00" not in error["message"]


def _written(match_id: int) -> tuple:
    match = Match.objects.get(pk=match_id)
    return (*row_counts(), match.status, match.abort_reason)


@pytest.mark.parametrize("kind, field_name, argument_name", TEXT_ARGUMENTS,
                         ids=[f"{k} {f}({a})" for k, f, a in TEXT_ARGUMENTS])
def test_a_control_character_in_any_text_argument_is_invalid_input(players, kind, field_name,
                                                                   argument_name):
    match_id = start_match("han", players[:2])
    query, variables, path = _operation(kind, field_name, argument_name)
    before = _written(match_id)
    _assert_refused(gql(query, variables, token=players[0].token), path)
    assert _written(match_id) == before


def test_the_cases_cover_the_arguments_that_answered_server_error():
    cases = set(TEXT_ARGUMENTS)
    assert {("query", "player", "username"), ("mutation", "joinByInviteCode", "inviteCode"),
            ("mutation", "createPrivateMatch", "invite"),
            ("mutation", "inviteToMatch", "usernames")} <= cases
    assert len(cases) > 30


@pytest.mark.parametrize("document, path", [
    ('{ player(username: "a\\u0000b") { username } }', "username"),
    ('{ player(username: "tab\\there") { username } }', "username"),
    ('{ player(username: """two\nlines""") { username } }', "username"),
    ('mutation { joinByInviteCode(inviteCode: "\\u007f") { errors { code } } }', "inviteCode"),
    ('mutation { inviteToMatch(matchId: 1, usernames: ["ok", "a\\u001fb"]) '
     '{ errors { code } } }', "usernames.1"),
    ('mutation { createMatch(game: "han", players: 2, options: {map: "\\u0000"}) '
     '{ errors { code } } }', "options.map"),
    ('mutation { createMatch(game: "han", players: 2, botSeats: [{position: 1, '
     'kind: "gr\\u0000eedy"}]) { errors { code } } }', "botSeats.0.kind"),
    ('{ match(id: "1\\u0000") { id } }', "id"),
])
def test_control_characters_written_in_the_document_are_refused(players, document, path):
    before = row_counts()
    _assert_refused(gql(document, token=players[0].token), path)
    assert row_counts() == before


def test_a_key_inside_a_json_variable_is_checked_too(players):
    match_id = start_match("han", players[:2])
    query = ("mutation M($id: ID!, $move: JSON!) { submitMove(matchId: $id, move: $move) "
             "{ errors { code } } }")
    before = _written(match_id)
    _assert_refused(gql(query, {"id": match_id, "move": {"ty\x00pe": "draw"}},
                        token=players[0].token), "move.ty\\x00pe")
    assert _written(match_id) == before


def test_the_variable_is_named_by_the_argument_it_feeds_in_a_fragment(players):
    query = ("query Q($name: String!) { ...P } "
             "fragment P on Query { player(username: $name) { username } }")
    _assert_refused(gql(query, {"name": BAD}, token=players[0].token), "username")


# -- the one argument of free text ------------------------------------------------------------
ABORT = ("mutation Abort($id: ID!, $reason: String!) { abortMatch(matchId: $id, "
         "reason: $reason) { errors { code field } match { status } } }")


def test_an_abort_reason_may_span_lines_but_holds_no_other_control(players):
    match_id = start_match("hansa", players)
    for reason in ("rain\x00", "rain\x07", "rain\x1b[2J"):
        before = _written(match_id)
        _assert_refused(gql(ABORT, {"id": match_id, "reason": reason},
                            token=players[0].token), "reason")
        assert _written(match_id) == before
    reason = "Rain stopped play.\r\nWe meet again tomorrow:\tsame table."
    answer = gql(ABORT, {"id": match_id, "reason": reason}, token=players[0].token)
    assert answer["data"]["abortMatch"] == {"errors": [], "match": {"status": "ABORTED"}}
    assert Match.objects.get(pk=match_id).abort_reason == reason


def test_clean_arguments_still_work(players):
    answer = gql("query P($name: String!) { player(username: $name) { username } }",
                 {"name": players[0].user.username})
    assert answer == {"data": {"player": {"username": players[0].user.username}}}


# -- subscriptions (served over the websocket; the same check runs in the schema) -------------
@pytest.mark.parametrize("document, variables, path", [
    ("subscription S($id: ID!) { matchUpdates(matchId: $id) { ply } }", {"id": "1\x00"},
     "matchId"),
    ('subscription { myEvents(lastEventId: "\\u0000") { kind } }', None, "lastEventId"),
])
def test_subscription_arguments_are_checked_before_anything_runs(document, variables, path):
    async def first_result():
        stream = await schema.subscribe(document, variable_values=variables)
        async for result in stream:  # a refusal is the one result, before any resolver
            return result

    result = asyncio.run(first_result())
    body = {"data": None, "errors": [error.formatted for error in result.errors]}
    _assert_refused(json.loads(json.dumps(body)), path)
