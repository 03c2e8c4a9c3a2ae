"""Expensive operations at once (games/graphql/concurrency.py): a client over its bound,
or any client while the process's slots are taken, is refused at once with
``too_many_concurrent`` before any resolver runs; cheap operations never wait for a slot;
a slot is given back however the operation ends. (Sixteen real clients against a real
server: test_abusive_clients.py.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from graphql import parse

from games.graphql import concurrency, limits
from games.graphql.concurrency import SLOTS, Bounds, ExpensiveOperations, Slots
from games.graphql.cost_estimate import Estimate, estimate
from games.graphql.limits import _ESTIMATE
from games.graphql.schema import schema
from games.lobby import selectors as lobby_selectors
from tests.games.graphql.support import GRAPHQL, error_codes, gql

pytestmark = pytest.mark.django_db

#: a page of 100 matches with their views and seats: expensive, and under the cap
EXPENSIVE = "{ matches(limit: 100) { totalCount results { id view toAct seats { user } } } }"
CHEAP = "{ games { game } }"
ANONYMOUS = "addr:127.0.0.1"  # the test client's address, as the rate limits count it


def post(query: str, token: str | None = None):
    headers = {"HTTP_AUTHORIZATION": f"Token {token}"} if token else {}
    return Client().post(GRAPHQL, data=json.dumps({"query": query}),
                         content_type="application/json", **headers)


@contextlib.contextmanager
def held(client: str):
    """``client`` running an expensive operation meanwhile (which then takes no time, so
    the process owes no pause after it)."""
    assert SLOTS.take(client, concurrency.bounds()) is None
    try:
        yield
    finally:
        SLOTS.give_back(client, 0.0, concurrency.bounds())


def assert_too_many(response, scope: str, limit: int) -> None:
    assert response.status_code == 429
    assert response["Retry-After"] == "1"
    body = response.json()
    assert body.get("data") is None
    [error] = body["errors"]
    assert error["extensions"] == {"code": "too_many_concurrent", "details": {
        "scope": scope, "limit": limit, "retry_after_seconds": 1}}


def test_the_expensive_query_here_is_expensive_and_the_cheap_one_cheap():
    def cost(query):
        return estimate(schema._schema, parse(query), None, {}).cost

    assert limits.MAX_COST >= cost(EXPENSIVE) >= concurrency.expensive_cost() > cost(CHEAP)


def test_slots_bound_each_client_and_the_process():
    slots, two = Slots(), Bounds(per_client=1, per_process=2, share=1.0)
    assert slots.take("a", two) is None
    assert slots.take("a", two) == "client"
    assert slots.take("b", two) is None
    assert slots.take("c", two) == "process"
    assert slots.running() == 2 and slots.running("a") == 1
    slots.give_back("a", 0.1, two)
    assert slots.take("c", two) is None
    slots.give_back("b", 0.1, two)
    slots.give_back("c", 0.1, two)
    assert slots.running() == 0 and slots._per_client == {}  # nobody kept in the table


def test_after_an_expensive_operation_the_process_pauses_for_its_share():
    now = [100.0]
    slots, half = Slots(clock=lambda: now[0]), Bounds(per_client=1, per_process=1, share=0.5)
    assert slots.take("a", half) is None
    now[0] += 0.2
    slots.give_back("a", 0.2, half)  # 200 ms at half the process's time: 200 ms of pause
    now[0] += 0.15
    assert slots.take("b", half) == "process"
    now[0] += 0.06
    assert slots.take("b", half) is None
    slots.give_back("b", 0.1, Bounds(per_client=1, per_process=1, share=0.25))
    now[0] += 0.29  # a quarter of the time: three times as long as it ran
    assert slots.take("a", half) == "process"
    now[0] += 0.02
    assert slots.take("a", half) is None


def test_over_its_bound_a_client_is_refused_before_any_resolver(settings, players):
    settings.GRAPHQL_EXPENSIVE_PER_PROCESS = 2
    gql(CHEAP)  # the process's first request loads the stack: not counted
    with held(ANONYMOUS):
        with CaptureQueriesContext(connection) as captured:
            refused = post(EXPENSIVE)
        assert captured.captured_queries == []
        assert_too_many(refused, "client", 1)
        assert "errors" not in post(CHEAP).json()  # cheap operations take no slot
        # another client has its own bound
        assert "errors" not in post(EXPENSIVE, token=players[0].token).json()
    assert "errors" not in post(EXPENSIVE).json()  # the slot is free again
    assert SLOTS.running() == 0


def test_while_the_process_s_slots_are_taken_every_client_is_refused(settings, players):
    settings.GRAPHQL_EXPENSIVE_PER_PROCESS = 1
    with held("user:someone-else"):
        assert_too_many(post(EXPENSIVE, token=players[0].token), "process", 1)
        assert "errors" not in post(CHEAP, token=players[0].token).json()
    assert "errors" not in post(EXPENSIVE, token=players[0].token).json()


def test_the_slot_is_held_while_resolving_and_given_back_after_an_error(monkeypatch):
    seen = []
    listing = lobby_selectors.list_matches

    def watched(**filters):
        seen.append(SLOTS.running(ANONYMOUS))
        return listing(**filters)

    monkeypatch.setattr(lobby_selectors, "list_matches", watched)
    body = post(EXPENSIVE).json()
    assert "errors" not in body and seen == [1]
    failing = EXPENSIVE[:-1] + " gone: match(id: 999999) { id } }"  # a resolver raises
    assert error_codes(post(failing).json()) == ["match_not_found"]
    assert SLOTS.running() == 0


def test_a_throttled_operation_takes_no_slot(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {
        **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "anon_read": "0/min"}}
    response = post(EXPENSIVE)
    assert response.status_code == 429
    assert error_codes(response.json()) == ["throttled"]
    assert SLOTS.running() == 0


def test_subscriptions_take_no_slot():
    extension = ExpensiveOperations()
    document = parse("subscription { matchUpdates(matchId: 1) { ply view } }")
    extension.execution_context = SimpleNamespace(
        result=None, graphql_document=document, operation_name=None,
        context=SimpleNamespace(user=None, ws=SimpleNamespace(scope={})),
        **{_ESTIMATE: Estimate(cost=10**6)})
    assert extension._take_slot() is None
    assert SLOTS.running() == 0


def test_over_the_websocket_the_same_bound_holds():
    from channels.testing import WebsocketCommunicator

    from games.graphql.websocket import GraphQLSubscriptionConsumer

    async def ask() -> dict:
        communicator = WebsocketCommunicator(
            GraphQLSubscriptionConsumer.as_asgi(schema=schema), "/graphql/",
            subprotocols=["graphql-transport-ws"])
        communicator.scope["client"] = ("10.0.0.9", 40000)
        connected, _ = await communicator.connect()
        assert connected
        await communicator.send_json_to({"type": "connection_init", "payload": {}})
        assert (await communicator.receive_json_from())["type"] == "connection_ack"
        await communicator.send_json_to({"id": "1", "type": "subscribe",
                                         "payload": {"query": EXPENSIVE}})
        answer = await communicator.receive_json_from(timeout=5)
        await communicator.disconnect()
        return answer

    with held("addr:10.0.0.9"):
        answer = asyncio.run(ask())
    assert answer["type"] == "next", answer
    assert error_codes(answer["payload"]) == ["too_many_concurrent"]
