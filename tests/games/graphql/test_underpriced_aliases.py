"""Underpriced GraphQL (issue 39): three aliases of ``matchRecord`` were estimated under the
slot threshold, ran two to three times their estimate under load and took no slot, so
sixteen clients sending them pushed the health check from 5 ms to over a second. The
weights are now measured with aliases and under contention
(bench/graphql_field_costs.py --contention 1), the cap is the 250 ms of work converted at
the measured unit, and every operation over the documented slot cost takes a slot.
(The health check under that flood is bench/graphql_alias_flood.py's figure: timing is
the bench's to measure, not a test's.)"""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from graphql import parse

from games.graphql import concurrency, limits
from games.graphql.concurrency import SLOTS
from games.graphql.cost_estimate import estimate
from games.graphql.field_weights import UNIT_MS
from games.graphql.schema import schema
from tests.games.graphql.support import GRAPHQL, error_codes, gql

pytestmark = pytest.mark.django_db

#: what three aliases of the record of a 138-ply five-seat Han game took, per alias, with
#: one competing process (bench/graphql_field_costs.py --contention 1, docs/capacity.md)
RECORD_MS_UNDER_CONTENTION = 24.1


def aliases(count: int, selection: str) -> str:
    return "{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


def cost_of(query: str) -> int:
    return estimate(schema._schema, parse(query), None, {}).cost


THREE_RECORDS = aliases(3, "matchRecord(matchId: 1)")


def post(query: str, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return Client().post(GRAPHQL, data=json.dumps({"query": query}),
                         content_type="application/json", **headers)


def test_three_record_aliases_are_priced_at_their_measured_cost():
    assert cost_of(THREE_RECORDS) * UNIT_MS >= 3 * RECORD_MS_UNDER_CONTENTION
    # each alias is resolved anew (nothing shared between them): priced as often
    assert cost_of(THREE_RECORDS) == 3 * cost_of(aliases(1, "matchRecord(matchId: 1)"))


def test_three_record_aliases_take_a_slot():
    assert cost_of(THREE_RECORDS) >= concurrency.expensive_cost()


def test_the_slot_cost_is_documented_and_small():
    """The threshold is a cost of a few tens of milliseconds of measured work, the wait
    a cheap request may have behind one operation without a slot (docs/api.md)."""
    assert concurrency.expensive_cost() * UNIT_MS <= 30
    # and a poll of one match, joining and starting one stay under it: no slot, no 429
    # for a player's routine
    assert cost_of("{ match(id: 1) { id status toAct view } }") < concurrency.expensive_cost()
    for mutation in ('mutation { joinMatch(matchId: 1) { errors { code } } }',
                     'mutation { startMatch(matchId: 1) { errors { code } } }'):
        assert cost_of(mutation) < concurrency.expensive_cost(), mutation


def test_three_record_aliases_are_refused_while_the_process_s_slot_is_taken(settings):
    settings.GRAPHQL_EXPENSIVE_PER_PROCESS = 1
    gql("{ __typename }")  # the process's first request loads the stack: not counted
    assert SLOTS.take("user:someone-else", concurrency.bounds()) is None
    try:
        with CaptureQueriesContext(connection) as captured:
            response = post(THREE_RECORDS)
        assert captured.captured_queries == []
    finally:
        SLOTS.give_back("user:someone-else", 0.0, concurrency.bounds())
    assert response.status_code == 429
    assert response["Retry-After"] == "1"
    assert error_codes(response.json()) == ["too_many_concurrent"]
    assert SLOTS.running() == 0


def test_the_cap_is_the_250_ms_of_work_at_the_measured_unit():
    assert limits.MAX_WORK_MS == 250
    assert limits.MAX_COST == round(limits.MAX_WORK_MS / UNIT_MS)


#: fields to build an operation of a given cost with, the costliest first
_FILLERS = ("matchRecord(matchId: 1)", 'player(username: "nobody") { username }',
            "match(id: 1) { id }")


def _with_profile(selections: list[str], plain_fields: int = 1) -> str:
    aliased = " ".join(f"a{i}: {selection}" for i, selection in enumerate(selections))
    return "{ " + aliased + " me {" + " username" * plain_fields + " } }"


def _at_cost(target: int) -> str:
    """An operation estimated at exactly ``target``: aliases of the fillers, costliest
    first, then a profile's plain fields (1 each) to make up the rest."""
    selections: list[str] = []
    for filler in _FILLERS:
        while (len(selections) < limits.MAX_ALIASES - 1
               and cost_of(_with_profile([*selections, filler])) <= target):
            selections.append(filler)
    query = _with_profile(selections, 1 + target - cost_of(_with_profile(selections)))
    assert cost_of(query) == target
    return query


def test_a_query_just_over_the_cap_is_refused_and_one_at_it_is_not():
    over = post(_at_cost(limits.MAX_COST + 1)).json()
    assert error_codes(over) == ["query_too_costly"]
    assert over["errors"][0]["extensions"]["details"] == {
        "cost": limits.MAX_COST + 1, "max_cost": limits.MAX_COST}
    at_the_cap = post(_at_cost(limits.MAX_COST)).json()
    assert "query_too_costly" not in error_codes(at_the_cap)
