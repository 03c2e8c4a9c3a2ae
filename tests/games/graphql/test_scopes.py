"""Scopes on GraphQL (docs/api.md "Scopes"): every root field is in the one table, a
field needing a signed-in user declares a scope, and a credential without it is refused
``insufficient_scope`` naming it: in a mutation's payload errors (nothing written), in
``extensions`` for a query. A first-party token carries every scope."""

from __future__ import annotations

import json

import pytest
import strawberry

from accounts.scopes import ALL_SCOPES
from games.graphql.schema import AllMutations, AllQueries, AllSubscriptions
from games.graphql.scopes import FIELD_SCOPES, apply_scopes
from games.matches.models import Match
from tests.credentials import scoped_client
from tests.games.graphql.support import GRAPHQL, gql

pytestmark = pytest.mark.django_db

#: the root fields anyone may call, signed in or not: public reads, signing up, logging in
OPEN_TO_ANONYMOUS = {
    "Query": {"games", "game", "matches", "match", "replay", "matchRecord", "verifyRecord",
              "recordSigningKeys",
              "leaderboard", "player", "matchAnalysis", "chatMessages"},
    "Mutation": {"register", "login"},
    "Subscription": {"matchUpdates", "analysisProgress", "chatMessages"},
}

CREATE = """mutation { createMatch(game: "hansa", players: 2) {
  match { id } errors { code message details } } }"""
ME = "{ me { username } }"


def _post(client, query: str) -> dict:
    response = client.post(GRAPHQL, data=json.dumps({"query": query}),
                           content_type="application/json")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_every_root_field_needing_a_signed_in_user_declares_a_scope():
    for type_name, fields in FIELD_SCOPES.items():
        for name, scope in fields.items():
            if name in OPEN_TO_ANONYMOUS[type_name]:
                assert scope is None, f"{type_name}.{name} is public"
            else:
                assert scope in ALL_SCOPES, f"{type_name}.{name} declares no scope"


def test_a_field_missing_from_the_table_stops_the_schema():
    @strawberry.type
    class Sneaky:
        @strawberry.field
        def forgotten(self) -> int:
            return 1

    with pytest.raises(RuntimeError, match="forgotten"):
        apply_scopes(Query=Sneaky)


def test_the_table_names_exactly_the_schema_s_root_fields():
    apply_scopes(Query=AllQueries, Mutation=AllMutations, Subscription=AllSubscriptions)


def test_a_mutation_without_its_scope_answers_in_its_payload_and_writes_nothing(user):
    body = _post(scoped_client(user, "account:read match:play"), CREATE)
    assert "errors" not in body
    payload = body["data"]["createMatch"]
    assert payload["match"] is None
    assert payload["errors"] == [{"code": "insufficient_scope",
                                  "message": payload["errors"][0]["message"],
                                  "details": {"scope": "match:write"}}]
    assert "match:write" in payload["errors"][0]["message"]
    assert not Match.objects.exists()


def test_with_the_scope_the_mutation_runs(user):
    payload = _post(scoped_client(user, "match:write"), CREATE)["data"]["createMatch"]
    assert payload["errors"] == [] and payload["match"]["id"]


def test_a_query_without_its_scope_is_an_error_naming_it(user):
    body = _post(scoped_client(user, "match:write"), ME)
    assert body["data"] is None or body["data"]["me"] is None
    (error,) = body["errors"]
    assert error["extensions"] == {"code": "insufficient_scope",
                                   "details": {"scope": "account:read"}}
    assert _post(scoped_client(user, "account:read"), ME)["data"]["me"]["username"] == \
        user.username


def test_public_fields_need_no_scope_and_first_party_tokens_carry_every_one(user, token):
    body = _post(scoped_client(user, ""), "{ games { game } matches { count } }")
    assert "errors" not in body
    assert gql(ME, token=token.key)["data"]["me"]["username"] == user.username
    created = gql(CREATE, token=token.key)["data"]["createMatch"]
    assert created["errors"] == []


def test_an_anonymous_caller_is_asked_to_sign_in_not_for_a_scope():
    payload = gql(CREATE)["data"]["createMatch"]
    assert [error["code"] for error in payload["errors"]] == ["not_authenticated"]


def test_a_subscription_over_the_websocket_checks_the_socket_s_credential(user, monkeypatch):
    """The websocket keeps the credential its connection_init carried (not only the user):
    ``myEvents`` needs account:read, ``matchUpdates`` nothing."""
    import asyncio

    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from games.graphql import websocket
    from tests.credentials import ScopedCredential

    monkeypatch.setattr(websocket, "credential_for_token",
                        lambda key: (user, ScopedCredential("match:play")))

    async def subscribe() -> dict:
        socket = WebsocketCommunicator(application, "/graphql/",
                                       subprotocols=["graphql-transport-ws"])
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.send_json_to({"type": "connection_init",
                                   "payload": {"authToken": "limited"}})
        assert (await socket.receive_json_from(timeout=10))["type"] == "connection_ack"
        await socket.send_json_to({"id": "1", "type": "subscribe", "payload": {
            "query": "subscription { myEvents { kind } }"}})
        answer = await socket.receive_json_from(timeout=10)
        await socket.disconnect()
        return answer

    answer = asyncio.run(subscribe())
    assert answer["type"] in ("error", "next"), answer
    errors = answer["payload"] if answer["type"] == "error" else answer["payload"]["errors"]
    assert errors[0]["extensions"] == {"code": "insufficient_scope",
                                       "details": {"scope": "account:read"}}
