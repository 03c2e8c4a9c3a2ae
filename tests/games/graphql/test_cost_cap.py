"""Every resolver priced (issue 21, item 3): the report's queries, 20 aliases of a
profile, a rating history, recent matches, a record, a replay or a verification, are
refused before any resolver runs, and the heaviest operations the cap still accepts stay
near 250 ms. The cost model's numbers are asserted here; the time only loosely, since the
machine is shared (bench/graphql_field_costs.py measures it on a realistic database)."""

from __future__ import annotations

import json
import time

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from graphql import parse
from rest_framework.authtoken.models import Token

from accounts.models import User
from games.graphql import limits
from games.graphql.cost_estimate import estimate
from games.graphql.field_weights import UNIT_MS
from games.graphql.schema import schema
from games.matches import services as match_services
from games.records.selectors import record_of
from tests.games.graphql.support import GRAPHQL, error_codes, gql
from tests.games.support import eager_celery, play_to_end

pytestmark = pytest.mark.django_db

#: each field of the report, the way a client would ask for it
REPORTED = {
    "player": 'player(username: "{user}") {{ username gamesPlayed recentMatches {{ id }} }}',
    "ratingHistory": 'player(username: "{user}") {{ ratingHistory(limit: 100) {{ matchId }} }}',
    "recentMatches": 'player(username: "{user}") {{ recentMatches {{ id view toAct }} }}',
    "matchRecord": "matchRecord(matchId: {match})",
    "replay": "replay(matchId: {match}) {{ ply view state views }}",
    "verifyRecord": "verifyRecord(record: $record) {{ valid pliesChecked }}",
    "match log": "match(id: {match}) {{ view result {{ winners }} log {{ ply move events }} }}",
}


def operation(name: str, count: int, user: str = "nobody", match: int = 1) -> str:
    selection = REPORTED[name].format(user=user, match=match)
    head = "query($record: JSON!) " if "$record" in selection else ""
    return head + "{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


def cost_of(query: str) -> int:
    return estimate(schema._schema, parse(query), None, {}).cost


def most_accepted(name: str) -> int:
    """How many aliases of the field the cap accepts (at most MAX_ALIASES)."""
    return min(limits.MAX_ALIASES, limits.MAX_COST // cost_of(operation(name, 1)))


def post(query: str, variables: dict | None = None, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return Client().post(GRAPHQL, data=json.dumps({"query": query, "variables": variables or {}}),
                         content_type="application/json", **headers)


def test_the_cap_is_about_250_ms():
    assert 200 <= limits.MAX_COST * UNIT_MS <= 260


def over_the_cap_at_twenty() -> list[str]:
    """The reported fields whose 20 aliases the measured weights put over the cap. A
    replay of the longest game measured (134 plies) costs about 12 ms: 20 fit in 250 ms."""
    return [name for name in REPORTED if cost_of(operation(name, 20)) > limits.MAX_COST]


def test_the_report_s_costliest_fields_are_over_the_cap_at_twenty():
    assert {"player", "ratingHistory", "recentMatches", "matchRecord", "verifyRecord",
            "match log"} <= set(over_the_cap_at_twenty())


@pytest.mark.parametrize("name", over_the_cap_at_twenty())
def test_twenty_aliases_of_a_reported_field_are_refused_before_any_resolver(name):
    gql("{ __typename }")  # the process's first request loads the stack: not counted
    with CaptureQueriesContext(connection) as captured:
        response = post(operation(name, 20), {"record": {"moves": []}})
    assert captured.captured_queries == []
    body = response.json()
    assert error_codes(body) == ["query_too_costly"]
    assert body["errors"][0]["extensions"]["details"]["cost"] > limits.MAX_COST
    assert body.get("data") is None


@pytest.mark.parametrize("name", REPORTED)
def test_the_cap_admits_a_few_of_each_and_no_more(name):
    accepted = most_accepted(name)
    assert 1 <= accepted <= limits.MAX_ALIASES
    assert cost_of(operation(name, accepted)) <= limits.MAX_COST
    if accepted < limits.MAX_ALIASES:
        assert cost_of(operation(name, accepted + 1)) > limits.MAX_COST


@pytest.mark.slow  # plays a whole match
@pytest.mark.django_db(transaction=True)  # bot turns and scoring run on commit
def test_the_heaviest_accepted_operations_answer_in_time(players):
    """Each reported field as often as the cap allows, on a finished Han match: answered in
    full, and well inside a loose bound (the bench times them near the cap's 250 ms)."""
    hero = players[0]
    with eager_celery():  # a bot to move first plays at once
        match = match_services.create_match(user=hero.user, game="han", players=4,
                                            bot_seats={1: "random", 2: "random", 3: "random"})
    assert play_to_end(match.pk, {0: hero.user}).status == "finished"
    record = record_of(match.pk)
    gql("{ __typename }")
    for name in REPORTED:
        query = operation(name, most_accepted(name), user=hero.user.username, match=match.pk)
        started = time.perf_counter()
        response = post(query, {"record": record}, token=hero.token)
        elapsed = time.perf_counter() - started
        body = response.json()
        assert "errors" not in body, (name, body["errors"][:1])
        assert elapsed < 2.0, (name, elapsed)  # 8x the target: a loaded 2-core machine


def test_one_password_check_per_operation():
    User.objects.create_user(username="checked", password="tulip-orbit-7329-canyon")
    two = ('mutation { a: login(username: "checked", password: "tulip-orbit-7329-canyon") '
           '{ token } b: register(username: "newcomer", password: "tulip-orbit-7329-canyon") '
           "{ token } }")
    body = post(two).json()
    assert error_codes(body) == ["query_too_costly"]
    assert body["errors"][0]["extensions"]["details"] == {
        "password_checks": 2, "max_password_checks": 1}
    assert not Token.objects.filter(user__username="checked").exists()
    assert not User.objects.filter(username="newcomer").exists()
    one = post('mutation { login(username: "checked", password: "tulip-orbit-7329-canyon") '
               "{ token errors { code } } }").json()
    assert one["data"]["login"]["token"]
