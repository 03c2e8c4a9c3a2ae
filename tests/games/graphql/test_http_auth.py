"""The /graphql/ HTTP endpoint authenticates exactly like REST, and shows GraphiQL only in
development."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.games.graphql.support import GRAPHQL, gql

pytestmark = pytest.mark.django_db


def test_a_bad_token_is_refused_like_rest(players):
    for header in ("Token not-a-real-token", f"Token {players[0].token}x", "Token"):
        response = Client().post(
            GRAPHQL, data=json.dumps({"query": "{ me { username } }"}),
            content_type="application/json", HTTP_AUTHORIZATION=header,
        )
        assert response.status_code == 401
        error = response.json()["errors"][0]
        assert error["extensions"]["code"] == "not_authenticated"
        rest = Client().get("/api/v1/me", HTTP_AUTHORIZATION=header)
        assert rest.status_code == 401 and rest.json()["error"]["code"] == "not_authenticated"


def test_inactive_users_token_is_refused(players):
    players[0].user.is_active = False
    players[0].user.save()
    response = Client().post(
        GRAPHQL, data=json.dumps({"query": "{ me { username } }"}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {players[0].token}",
    )
    assert response.status_code == 401


def test_session_login_reads_and_csrf_guards_writes_as_in_rest(players):
    client = Client(enforce_csrf_checks=True)
    client.force_login(players[0].user)
    get = client.get(GRAPHQL, {"query": "{ me { username } }"}, HTTP_ACCEPT="application/json")
    assert get.json()["data"]["me"]["username"] == players[0].user.username
    # DRF's session authentication: an unsafe request without the CSRF token is refused.
    post = client.post(GRAPHQL, data=json.dumps({"query": "{ me { username } }"}),
                       content_type="application/json")
    assert post.status_code == 403
    assert post.json()["errors"][0]["extensions"]["code"] == "permission_denied"
    rest = client.post("/api/v1/matches/", data={"game": "han", "players": 3})
    assert rest.status_code == 403 and rest.json()["error"]["code"] == "permission_denied"


@pytest.mark.parametrize("debug", [True, False])
def test_graphiql_is_served_with_debug_on_or_off(settings, debug):
    # Issue 10: GraphiQL runs on our own static files and only sends what any client may
    # send, so it no longer depends on DEBUG (GRAPHIQL=false hides it: tests/infra).
    settings.DEBUG = debug
    page = Client().get(GRAPHQL, HTTP_ACCEPT="text/html")
    assert page.status_code == 200 and b"graphiql" in page.content.lower()


def test_unexpected_errors_are_masked(monkeypatch):
    def explode():
        raise RuntimeError("secret internals: seed=abc")

    monkeypatch.setattr("games.catalogue.list_games", explode)
    body = gql("{ games { game } }")
    assert body["errors"][0]["extensions"]["code"] == "server_error"
    assert "secret" not in json.dumps(body)


def test_operations_are_bounded_in_aliases():
    aliases = " ".join(f"g{i}: games {{ game }}" for i in range(21))
    assert gql(f"{{ {aliases} }}")["errors"][0]["extensions"]["code"] == "too_many_aliases"
    fine = " ".join(f"g{i}: games {{ game }}" for i in range(3))
    assert "errors" not in gql(f"{{ {fine} }}")
