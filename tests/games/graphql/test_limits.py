"""Bounded GraphQL (issue 9, defect 2): the report's attack and oversized documents are
refused before execution (no SQL at all) and quickly; nested lists are paged like REST;
a query running past the time limit stops resolving fields (games/graphql/limits.py)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from games.graphql import limits
from tests.games.graphql.support import GRAPHQL, advance, error_codes, gql, start_match

pytestmark = pytest.mark.django_db

#: the report's attack: 20 aliases of a page of 100 matches with views, logs and events
ATTACK = "{ " + " ".join(
    f"a{i}: matches(limit: 100) {{ results {{ view log {{ ply move }} "
    f"events {{ moves {{ move }} view }} }} }}" for i in range(20)
) + " }"


def _refused(query: str, variables: dict | None = None) -> dict:
    """Post anonymously; the body, checking no SQL query ran (the refusal came before
    any resolver: cheap; bench/graphql_limits_bench.py measures how cheap, since timed
    assertions fail on a loaded machine). A
    refusal by the HTTP view (the query text's size) is a 400, one by the schema's
    limits a GraphQL error (200, as for any invalid document)."""
    gql("{ __typename }")  # the process's first request loads the stack: not measured
    with CaptureQueriesContext(connection) as captured:
        response = Client().post(GRAPHQL, data=json.dumps(
            {"query": query, "variables": variables or {}}), content_type="application/json")
    assert captured.captured_queries == [], "refused before any resolver ran"
    assert response.status_code in (200, 400)
    body = response.json()
    assert body.get("data") is None
    return body


def test_the_reported_attack_is_refused_before_execution(players):
    start_match("han", players)  # something to list, were it executed
    body = _refused(ATTACK)
    [error] = body["errors"]
    assert error["extensions"]["code"] == "query_too_costly"
    assert error["extensions"]["details"]["cost"] > limits.MAX_COST


@pytest.mark.parametrize("field, count", [("game", 2_000), ("id", 2_000), ("id", 600)])
def test_documents_of_thousands_of_fields_are_refused_unvalidated(field, count):
    # By the text's size, the token count or the field count, whichever comes first.
    body = _refused("{ games { " + " ".join([field] * count) + " } }")
    assert error_codes(body) == ["query_too_large"]


def test_a_fragment_bomb_is_refused_by_its_cost_without_expanding_it():
    # Each fragment spreads the next twice: 2**40 fields once expanded.
    levels = 40
    query = "query { games { ...G0 } } " + " ".join(
        f"fragment G{i} on Game {{ game ...G{i + 1} ...G{i + 1} }}" for i in range(levels)
    ) + f" fragment G{levels} on Game {{ title }}"
    body = _refused(query)
    assert error_codes(body) == ["query_too_costly"]


def test_deep_documents_are_refused_before_validation():
    query = "{ " + "a { " * 12 + "b" + " }" * 12 + " }"  # not even valid fields
    body = _refused(query)
    assert error_codes(body) == ["query_too_deep"]


def test_page_size_variables_count_in_the_cost():
    query = ("query($n: Int!) { a: matches(limit: $n) { results { view log { move } } } "
             "b: matches(limit: $n) { results { view log { move } } } }")
    body = _refused(query, {"n": 100})
    assert error_codes(body) == ["query_too_costly"]
    small = gql(query, {"n": 5})
    assert "errors" not in small, small


def test_ordinary_queries_stay_well_inside_the_limits(players):
    start_match("han", players)
    listing = gql("{ matches(limit: 100) { totalCount results { id status view "
                  "seats { position user } toAct } } games { game title } }")
    assert "errors" not in listing, listing
    assert listing["data"]["matches"]["totalCount"] == 1
    from graphql import get_introspection_query

    assert "errors" not in gql(get_introspection_query())


def test_an_oversized_query_text_is_refused_before_parsing():
    query = "{ games { game } }" + " " * limits.MAX_QUERY_CHARS
    response = Client().post(GRAPHQL, data=json.dumps({"query": query}),
                             content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"][0]["extensions"]["code"] == "query_too_large"


# -- nested lists are paged ---------------------------------------------------------------
PAGES = """
query($id: ID!, $since: Int!, $limit: Int!) {
  match(id: $id) { ply log(since: $since, limit: $limit) { ply }
                   events(since: $since, limit: $limit) { since ply moves { ply } } }
}
"""


def test_the_log_and_events_are_paged_with_rest_bounds(players):
    match_id = start_match("han", players)
    advance(match_id, players, 5)
    page = gql(PAGES, {"id": str(match_id), "since": 1, "limit": 2}, token=players[0].token)
    match = page["data"]["match"]
    assert [entry["ply"] for entry in match["log"]] == [1, 2]
    assert [entry["ply"] for entry in match["events"]["moves"]] == [1, 2]
    assert match["events"]["ply"] == match["ply"] == 5  # the client sees more remain
    for bad in (0, 101, -1):
        body = gql(PAGES, {"id": str(match_id), "since": 0, "limit": bad})
        assert set(error_codes(body)) == {"invalid_request"}


# -- the deadline ---------------------------------------------------------------------------
def test_fields_past_the_time_limit_are_not_resolved(settings, caplog):
    settings.GRAPHQL_TIMEOUT_SECONDS = 0
    body = gql("{ games { game } me { username } }")
    assert set(error_codes(body)) == {"timeout"}
    assert body["data"] is None or all(value is None for value in body["data"].values())
    # One warning for the operation, no traceback per unresolved field.
    assert [r.levelname for r in caplog.records if "ran past" in r.getMessage()] == ["WARNING"]
    assert not [r for r in caplog.records if r.levelname == "ERROR"]


def test_subscriptions_are_exempt_from_the_deadline():
    """Their fields resolve at every push, long after the operation began (the real
    stream of a whole game: tests/games/graphql/test_subscriptions.py)."""
    extension = limits.Deadline()
    extension.execution_context = SimpleNamespace(operation_name="Updates")
    extension.deadline = 0.0  # long past

    class Info:
        class operation:  # noqa: N801 (stands for graphql's OperationDefinitionNode)
            operation = limits.OperationType.SUBSCRIPTION

    assert extension.resolve(lambda root, info: "pushed", None, Info) == "pushed"
    Info.operation.operation = limits.OperationType.QUERY
    with pytest.raises(limits.QueryRefused):
        extension.resolve(lambda root, info: "late", None, Info)
