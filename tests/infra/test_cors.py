"""Cross-origin use: CORS on REST and GraphQL over HTTP (django-cors-headers) and the same
allowed origins for the /graphql/ websocket (infra/ws_origins.py)."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.testing import WebsocketCommunicator

ALLOWED = "http://frontend.example:3000"
REFUSED = "http://evil.example"


@pytest.fixture(autouse=True)
def one_allowed_origin(settings):
    settings.CORS_ALLOWED_ORIGINS = [ALLOWED]


def preflight(client, path, origin, method="POST"):
    return client.options(
        path, HTTP_ORIGIN=origin, HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type",
    )


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/matches", "/api/v1/auth/token/",
                                  "/api/v1/matches/1/moves/", "/graphql/", "/graphql"])
def test_preflight_from_an_allowed_origin_is_granted(client, path):
    response = preflight(client, path, ALLOWED)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in response["Access-Control-Allow-Methods"]
    allowed_headers = response["Access-Control-Allow-Headers"].lower()
    assert "authorization" in allowed_headers and "content-type" in allowed_headers
    # token header only: no cookie ever crosses origins
    assert "Access-Control-Allow-Credentials" not in response


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/v1/matches/", "/graphql/"])
def test_preflight_from_another_origin_gets_no_grant(client, path):
    response = preflight(client, path, REFUSED)
    assert "Access-Control-Allow-Origin" not in response


@pytest.mark.django_db
def test_rest_answers_carry_the_grant_for_allowed_origins_only(client):
    allowed = client.get("/api/v1/games/", HTTP_ORIGIN=ALLOWED)
    assert allowed.status_code == 200
    assert allowed["Access-Control-Allow-Origin"] == ALLOWED
    assert "Retry-After" in allowed["Access-Control-Expose-Headers"]
    refused = client.get("/api/v1/games/", HTTP_ORIGIN=REFUSED)
    assert "Access-Control-Allow-Origin" not in refused


@pytest.mark.django_db
def test_errors_carry_the_grant_too_so_a_browser_can_read_them(client):
    response = client.get("/api/v1/no-such-thing", HTTP_ORIGIN=ALLOWED)
    assert response.status_code == 404
    assert response["Access-Control-Allow-Origin"] == ALLOWED


@pytest.mark.django_db
def test_graphql_answers_carry_the_grant_for_allowed_origins_only(client):
    body = json.dumps({"query": "{ games { game } }"})
    allowed = client.post("/graphql/", body, content_type="application/json",
                          HTTP_ORIGIN=ALLOWED)
    assert allowed.status_code == 200
    assert allowed["Access-Control-Allow-Origin"] == ALLOWED
    refused = client.post("/graphql/", body, content_type="application/json",
                          HTTP_ORIGIN=REFUSED)
    assert "Access-Control-Allow-Origin" not in refused


def test_pages_outside_the_api_get_no_grant(client):
    response = client.get("/admin/login/", HTTP_ORIGIN=ALLOWED)
    assert "Access-Control-Allow-Origin" not in response


# ------------------------------------------------------------------------------- websocket
def handshake(origin: str | None, host: str = "testserver") -> bool:
    from config.asgi import application

    headers = [(b"host", host.encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))

    async def attempt():
        communicator = WebsocketCommunicator(
            application, "/graphql/", headers=headers, subprotocols=["graphql-transport-ws"]
        )
        connected, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    return asyncio.run(attempt())


@pytest.mark.django_db(transaction=True)
def test_websocket_from_an_allowed_origin_is_accepted():
    assert handshake(ALLOWED) is True


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("origin", [REFUSED, "http://frontend.example:3001",
                                    "https://frontend.example:3000", "null"])
def test_websocket_from_another_origin_is_refused(origin):
    assert handshake(origin) is False


@pytest.mark.django_db(transaction=True)
def test_websocket_from_the_server_s_own_pages_is_accepted():
    assert handshake("http://127.0.0.1:8000", host="127.0.0.1:8000") is True


@pytest.mark.django_db(transaction=True)
def test_websocket_without_an_origin_is_accepted():
    # scripts and bots send none; an Origin check protects browsers only
    assert handshake(None) is True


@pytest.mark.django_db(transaction=True)
def test_websocket_honours_a_change_of_the_list(settings):
    settings.CORS_ALLOWED_ORIGINS = [REFUSED]
    assert handshake(REFUSED) is True
    assert handshake(ALLOWED) is False
