"""Numbers past Python's digit limit in GraphQL arguments, and bodies REST refuses
(issue 39).

``match(id: "111...1")`` with 5,000 digits was a masked ``server_error`` (``int()`` refuses
more than 4,300 digits); every ID is now read by infra/numbers.py and answers the field's
own code. A body of invalid UTF-8, or one whose variables hold a 5,000-digit number, was a
500: GraphQL bodies are now decoded by REST's rules (infra/parsers.py ``decode_json``),
400 ``malformed_json``.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.games.graphql.support import GRAPHQL, error_codes, gql, payload_codes, start_match
from tests.games.support import row_counts

pytestmark = pytest.mark.django_db

HUGE = "1" * 5000
LONG = "9" * 21


#: (operation with {n} for the number, the code of the error it must answer)
QUERIES = [
    ('{ match(id: "{n}") { id } }', "match_not_found"),
    ('{ replay(matchId: "{n}") { ply } }', "match_not_found"),
    ('{ matchRecord(matchId: "{n}") }', "match_not_found"),
    ('{ matchAnalysis(matchId: "{n}") }', "match_not_found"),
    ('{ myData(recordsAfter: "{n}") }', "invalid_request"),
]

#: mutations answer a payload's errors, not GraphQL errors
MUTATIONS = [
    ('mutation { joinMatch(matchId: "{n}") { errors { code } } }', "joinMatch",
     "match_not_found"),
    ('mutation { leaveMatch(matchId: "{n}") { errors { code } } }', "leaveMatch",
     "match_not_found"),
    ('mutation { startMatch(matchId: "{n}") { errors { code } } }', "startMatch",
     "match_not_found"),
    ('mutation { resignMatch(matchId: "{n}") { errors { code } } }', "resignMatch",
     "match_not_found"),
    ('mutation { reclaimSeat(matchId: "{n}") { errors { code } } }', "reclaimSeat",
     "match_not_found"),
    ('mutation { acceptInvitation(invitationId: "{n}") { errors { code } } }',
     "acceptInvitation", "invitation_not_found"),
    ('mutation { cancelQuickMatch(requestId: "{n}") { errors { code } } }',
     "cancelQuickMatch", "quick_match_not_found"),
]


@pytest.mark.parametrize("number", [HUGE, LONG])
@pytest.mark.parametrize("query, code", QUERIES)
def test_a_huge_id_argument_answers_its_code_not_server_error(players, query, code, number):
    body = gql(query.replace("{n}", number), token=players[0].token)
    assert error_codes(body) == [code], body
    assert HUGE[:100] not in json.dumps(body)


@pytest.mark.parametrize("number", [HUGE, LONG])
@pytest.mark.parametrize("mutation, field, code", MUTATIONS)
def test_a_huge_id_in_a_mutation_answers_its_code(players, mutation, field, code, number):
    before = row_counts()
    body = gql(mutation.replace("{n}", number), token=players[0].token)
    assert "errors" not in body, body
    assert payload_codes(body["data"][field]) == [code]
    assert row_counts() == before


@pytest.mark.parametrize("number", [HUGE, LONG])
def test_a_huge_id_as_a_variable_answers_its_code(players, number):
    body = gql("query($id: ID!) { match(id: $id) { id } }", {"id": number},
               token=players[0].token)
    assert error_codes(body) == ["match_not_found"]


@pytest.mark.parametrize("field", ["ply", "since"])
def test_a_huge_int_literal_answers_invalid_input_naming_the_argument(players, field):
    match_id = start_match("han", players[:2])
    query = (f'{{ match(id: "{match_id}") {{ boardSvgUrl(ply: {HUGE}) }} }}' if field == "ply"
             else f'{{ match(id: "{match_id}") {{ log(since: {HUGE}) {{ ply }} }} }}')
    body = gql(query, token=players[0].token)
    assert error_codes(body) == ["invalid_input"], body  # was a masked server_error
    assert body["errors"][0]["extensions"]["details"]["max"] == 2**31 - 1
    assert field in body["errors"][0]["extensions"]["details"]


def _post(body: bytes | str, token: str):
    return Client().post(GRAPHQL, data=body, content_type="application/json",
                         HTTP_AUTHORIZATION=f"Token {token}")


@pytest.mark.parametrize("body", [
    b'{"query": "{ games { title } }", "x": "\xff\xfe"}',  # invalid UTF-8: was a 500
    b"\xc3\x28",
    '{"query": "query($n: Int) { games { title } }", "variables": {"n": ' + HUGE + "}}",
    '{"query": "{ games { title } }", "variables": {"n": NaN}}',
    '{"query": "{ games { title } }", "variables": {"n": Infinity}}',
    '{"query": "{ games { title } }", "variables": ' + "[" * 70 + "]" * 70 + "}",
])
def test_bodies_rest_refuses_are_malformed_json_here_too(players, body, api_client):
    before = row_counts()
    response = _post(body, players[0].token)
    assert response.status_code == 400, (response.status_code, response.content[:300])
    answer = response.json()
    assert answer["errors"][0]["extensions"]["code"] == "malformed_json", answer
    assert row_counts() == before
    # and REST answers the same body the same way
    rest = api_client.post("/api/v1/matches/", body, content_type="application/json",
                           HTTP_AUTHORIZATION=f"Token {players[0].token}")
    assert rest.status_code == 400
    assert rest.json()["error"]["code"] == "malformed_json"
