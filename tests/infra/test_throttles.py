"""Rate limits (infra/throttles.py, games/graphql/throttling.py): each scope is hit on
REST and GraphQL, and the refusal is 429 ``throttled`` with ``retry_after_seconds`` and a
``Retry-After`` header. Time is frozen 30 s into a minute, so every count falls in one
window and the wait is exactly 30 s."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
import time_machine
from django.core.cache import cache
from rest_framework.test import APIClient

from tests.conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

FROZEN = datetime(2030, 1, 1, 12, 0, 30, tzinfo=UTC)


@pytest.fixture
def limits(settings):
    """limits(anon_read=..., ...): set those rates (others unlimited), fresh counters."""

    def apply(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {
                scope: rates.get(scope, "1000000/min")
                for scope in ("anon_read", "user_read", "move", "auth")
            },
        }

    cache.clear()  # the test settings' own Redis database
    with time_machine.travel(FROZEN, tick=False):
        yield apply
    cache.clear()


def assert_throttled(response, seconds: int = 30):
    assert response.status_code == 429, response.content
    assert response["Retry-After"] == str(seconds)
    body = response.json()
    if "errors" in body:
        error = body["errors"][0]
        assert error["extensions"]["code"] == "throttled"
        assert error["extensions"]["details"] == {"retry_after_seconds": seconds}
    else:
        assert body["error"]["code"] == "throttled"
        assert body["error"]["details"] == {"retry_after_seconds": seconds}


def gql(client, query, variables=None, **extra):
    return client.post("/graphql/", json.dumps({"query": query, "variables": variables or {}}),
                       content_type="application/json", **extra)


# ------------------------------------------------------------------------------- REST
def test_anonymous_reads_are_limited_per_address(limits):
    limits(anon_read="3/min")
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/v1/games/").status_code == 200
    assert_throttled(client.get("/api/v1/games/"))
    assert_throttled(client.get("/api/v1/matches/"))  # one budget for every read
    # another address has its own budget; an invented X-Forwarded-For is not one
    assert client.get("/api/v1/games/", REMOTE_ADDR="10.9.8.7").status_code == 200
    assert_throttled(client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.1.1.1"))


def test_a_trusted_proxy_s_forwarded_address_is_the_caller(limits, settings):
    limits(anon_read="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    client = APIClient()
    assert client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.1.1.1").status_code == 200
    assert client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.1.1.2").status_code == 200
    assert_throttled(client.get("/api/v1/games/", HTTP_X_FORWARDED_FOR="10.1.1.1"))


def test_signed_in_reads_are_limited_per_user(limits, make_user, make_auth_client):
    limits(user_read="2/min", anon_read="1000/min")
    alice, bob = make_auth_client(make_user()), make_auth_client(make_user())
    for _ in range(2):
        assert alice.get("/api/v1/me").status_code == 200
    assert_throttled(alice.get("/api/v1/games/"))
    assert bob.get("/api/v1/me").status_code == 200
    assert APIClient().get("/api/v1/games/").status_code == 200  # anonymous: its own scope


def test_move_submission_is_limited_and_reads_are_not_spent(limits, auth_client):
    limits(move="2/min")
    for _ in range(2):
        response = auth_client.post("/api/v1/matches/999999/moves/", {"move": {"type": "pass"}},
                                    format="json")
        assert response.json()["error"]["code"] == "match_not_found"
    assert_throttled(auth_client.post("/api/v1/matches/999999/moves/",
                                      {"move": {"type": "pass"}}, format="json"))
    # every write shares the budget; reads have their own
    assert_throttled(auth_client.post("/api/v1/matches/", {"game": "han", "players": 3},
                                      format="json"))
    assert auth_client.get("/api/v1/matches/999999/moves/").status_code == 404


def test_login_and_register_share_a_strict_budget_per_address(limits, user):
    limits(auth="3/min")
    client = APIClient()
    for _ in range(2):
        wrong = client.post("/api/v1/auth/token/",
                            {"username": user.username, "password": "guess"}, format="json")
        assert wrong.json()["error"]["code"] == "invalid_credentials"
    register = client.post("/api/v1/auth/register/",
                           {"username": "newcomer", "password": "a-long-passphrase-42"},
                           format="json")
    assert register.status_code == 201
    # the right password no longer helps from this address until the window ends
    assert_throttled(client.post("/api/v1/auth/token/",
                                 {"username": user.username, "password": DEFAULT_PASSWORD},
                                 format="json"))
    assert client.post("/api/v1/auth/token/",
                       {"username": user.username, "password": DEFAULT_PASSWORD},
                       format="json", REMOTE_ADDR="10.2.3.4").status_code == 200


def test_the_health_check_is_never_throttled(limits):
    limits(anon_read="1/min")
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/v1/health").status_code in (200, 503)


# ------------------------------------------------------------------------------- GraphQL
LOGIN = ("mutation($u: String!, $p: String!) "
         "{ login(username: $u, password: $p) { token errors { code } } }")


def test_graphql_login_is_limited_like_rest(limits, client, user):
    limits(auth="2/min")
    for _ in range(2):
        body = gql(client, LOGIN, {"u": user.username, "p": "guess"}).json()
        assert body["data"]["login"]["errors"][0]["code"] == "invalid_credentials"
    assert_throttled(gql(client, LOGIN, {"u": user.username, "p": DEFAULT_PASSWORD}))
    # REST and GraphQL spend the same budget
    assert_throttled(APIClient().post("/api/v1/auth/register/",
                                      {"username": "x", "password": "y"}, format="json"))


def test_graphql_mutations_count_each_alias_and_a_refusal_runs_nothing(limits, token):
    limits(move="2/min")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    three = """mutation { a: createMatch(game: "han", players: 3) { errors { code } }
                          b: createMatch(game: "han", players: 3) { errors { code } }
                          c: createMatch(game: "han", players: 3) { errors { code } } }"""
    from games.matches.models import Match

    response = gql(client, three)
    assert_throttled(response)
    assert response.json()["data"] is None
    assert Match.objects.count() == 0


def test_graphql_submit_move_is_limited(limits, token):
    limits(move="1/min")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    submit = 'mutation { submitMove(matchId: "999999", move: {type: "pass"}) { errors { code } } }'
    body = gql(client, submit).json()
    assert body["data"]["submitMove"]["errors"][0]["code"] == "match_not_found"
    assert_throttled(gql(client, submit))


def test_graphql_queries_spend_the_read_budget(limits, client):
    limits(anon_read="2/min")
    assert gql(client, "{ games { game } }").status_code == 200
    assert APIClient().get("/api/v1/games/").status_code == 200
    assert_throttled(gql(client, "{ games { game } }"))


@pytest.mark.django_db(transaction=True)
def test_mutations_over_the_websocket_are_limited_too(limits, user):
    import asyncio

    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    limits(auth="1/min")
    variables = {"u": user.username, "p": "guess"}

    async def two_logins():
        socket = WebsocketCommunicator(application, "/graphql/",
                                       subprotocols=["graphql-transport-ws"])
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.send_json_to({"type": "connection_init", "payload": {}})
        assert (await socket.receive_json_from(timeout=10))["type"] == "connection_ack"
        answers = []
        for number in ("1", "2"):
            await socket.send_json_to({"id": number, "type": "subscribe", "payload": {
                "query": LOGIN, "variables": variables}})
            answers.append(await socket.receive_json_from(timeout=20))
            assert (await socket.receive_json_from(timeout=20))["type"] == "complete"
        await socket.disconnect()
        return answers

    first, second = asyncio.run(two_logins())
    assert first["payload"]["data"]["login"]["errors"][0]["code"] == "invalid_credentials"
    error = second["payload"]["errors"][0]
    assert error["extensions"]["code"] == "throttled"
    assert error["extensions"]["details"] == {"retry_after_seconds": 30}


def _login_over_a_socket(user, forwarded: str, proxy: str = "10.0.0.1") -> str:
    """One failed GraphQL login over a websocket that reaches us through the proxy
    ``proxy``, which says the caller is ``forwarded`` (X-Forwarded-For): its error code."""
    import asyncio

    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    async def login() -> str:
        socket = WebsocketCommunicator(application, "/graphql/",
                                       headers=[(b"x-forwarded-for", forwarded.encode())],
                                       subprotocols=["graphql-transport-ws"])
        socket.scope["client"] = (proxy, 41234)  # the peer is the proxy, as behind nginx
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.send_json_to({"type": "connection_init", "payload": {}})
        assert (await socket.receive_json_from(timeout=10))["type"] == "connection_ack"
        await socket.send_json_to({"id": "1", "type": "subscribe", "payload": {
            "query": LOGIN, "variables": {"u": user.username, "p": "guess"}}})
        answer = await socket.receive_json_from(timeout=20)
        await socket.disconnect()
        if answer["payload"].get("errors"):
            return answer["payload"]["errors"][0]["extensions"]["code"]
        return answer["payload"]["data"]["login"]["errors"][0]["code"]

    return asyncio.run(login())


@pytest.mark.django_db(transaction=True)
def test_behind_proxies_each_websocket_caller_is_counted_as_over_http(limits, settings, user):
    limits(auth="1/min")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    assert _login_over_a_socket(user, "10.1.1.1") == "invalid_credentials"
    # another caller behind the same proxy has a budget of their own (it used to be the
    # proxy's, shared by every anonymous socket)
    assert _login_over_a_socket(user, "10.1.1.2") == "invalid_credentials"
    assert _login_over_a_socket(user, "10.1.1.1") == "throttled"
    # the proxy appends the address it saw: one the caller wrote before it is not believed
    assert _login_over_a_socket(user, "10.1.1.9, 10.1.1.1") == "throttled"
    # the socket and HTTP count one caller together
    assert_throttled(APIClient().post("/api/v1/auth/token/",
                                      {"username": user.username, "password": "guess"},
                                      format="json", HTTP_X_FORWARDED_FOR="10.1.1.2"))


@pytest.mark.django_db(transaction=True)
def test_without_trusted_proxies_a_websocket_s_forwarded_header_is_ignored(limits, user):
    limits(auth="1/min")  # NUM_PROXIES 0, the default: the peer's address counts
    assert _login_over_a_socket(user, "10.2.2.2", proxy="10.0.0.7") == "invalid_credentials"
    assert _login_over_a_socket(user, "10.2.2.3", proxy="10.0.0.7") == "throttled"
    assert _login_over_a_socket(user, "10.2.2.3", proxy="10.0.0.8") == "invalid_credentials"


def test_a_refusal_is_readable_by_a_browser_on_an_allowed_origin(limits, settings):
    # CORS headers on the 429 too, with Retry-After exposed, or a frontend sees only a
    # network error and cannot know when to retry
    settings.CORS_ALLOWED_ORIGINS = ["http://frontend.example:3000"]
    limits(anon_read="1/min")
    client = APIClient()
    client.get("/api/v1/games/")
    refused = client.get("/api/v1/games/", HTTP_ORIGIN="http://frontend.example:3000")
    assert_throttled(refused)
    assert refused["Access-Control-Allow-Origin"] == "http://frontend.example:3000"
    assert "Retry-After" in refused["Access-Control-Expose-Headers"]


def test_the_callers_known_over_a_limit_are_bounded_and_forgotten_when_their_window_ends(
        monkeypatch):
    """``known_over`` (a flooder refused before the match's lock) remembers callers until
    their window ends, and never more than ``_OVER_KEPT`` of them: a flood from many
    callers whose windows all still run empties it instead of growing it."""
    from infra import throttles

    monkeypatch.setattr(throttles, "_over_until", {})
    monkeypatch.setattr(throttles, "_OVER_KEPT", 3)
    with time_machine.travel(FROZEN, tick=False):
        now = FROZEN.timestamp()
        throttles._remember_over("move", "gone", now - 1)
        for ident in ("a", "b"):
            throttles._remember_over("move", ident, now + 30)
        assert not throttles.known_over("move", "gone") and throttles.known_over("move", "a")
        throttles._remember_over("move", "c", now + 30)  # full of running windows
        throttles._remember_over("move", "d", now + 30)
        assert len(throttles._over_until) <= 3
        assert throttles.known_over("move", "d")
