"""Redis unreachable (issue 21, item 1): the API keeps serving what needs only PostgreSQL.

The rate limits counted in Redis, so an outage answered 500 to every REST request and a
raw ``Error 111 connecting to 127.0.0.1:<port>`` to GraphQL. Now the counters fall back to
a bounded count in this process (infra/counters.py) and come back to Redis by themselves,
short socket timeouts make an outage cost milliseconds per request, and a Redis error that
still escapes is a 503 ``service_unavailable`` naming no host, port or driver message.

Redis is made unreachable here by pointing the cache at a loopback port nothing listens on
(refused at once) or at one that accepts and never answers (a black hole: only a timeout
ends the wait); tests/fault/test_redis_outage.py stops the real one under load.
"""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest
import redis
from django.core.cache import cache
from django_redis import get_redis_connection
from rest_framework.test import APIClient

from infra import counters, throttles
from tests.conftest import DEFAULT_PASSWORD
from tests.games.support import assert_api_error
from tests.infra.test_health import unused_loopback_port
from tests.infra.test_throttles import assert_throttled, limits  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

#: what an error answer must never show: the driver's text, the host and port
LEAKS = ("Error 111", "127.0.0.1", "Connection refused", "redis", "Redis", "63")


def _point_cache_at(settings, location: str) -> None:
    settings.CACHES = {"default": {**settings.CACHES["default"], "LOCATION": location}}


@pytest.fixture
def redis_refuses(settings):
    """The cache's Redis refuses connections (a stopped server)."""
    real = settings.CACHES
    _point_cache_at(settings, f"redis://127.0.0.1:{unused_loopback_port()}/0")
    yield
    settings.CACHES = real
    counters.forget_outage()


@pytest.fixture
def redis_black_hole(settings):
    """The cache's Redis accepts connections and never answers (a hung server or a
    dropped network path): only a socket timeout ends a call."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    real = settings.CACHES
    _point_cache_at(settings, f"redis://127.0.0.1:{listener.getsockname()[1]}/0")
    yield
    settings.CACHES = real
    counters.forget_outage()
    listener.close()


def _timed(call):
    started = time.monotonic()
    result = call()
    return result, time.monotonic() - started


def _two_seat_match(make_user):
    from games.matches import services as match_services

    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2, creator_seat=0)
    match_services.join_match(user=bob, match_id=match.pk)
    return match.pk, {0: ann, 1: bob}


def test_reads_moves_and_logins_are_served_while_redis_refuses(redis_refuses, make_user,
                                                                make_auth_client):
    match_id, seats = _two_seat_match(make_user)
    anonymous = APIClient()
    for path in ("/api/v1/games/", "/api/v1/games/han/", f"/api/v1/matches/{match_id}/",
                 "/api/v1/matches/"):
        response, seconds = _timed(lambda p=path: anonymous.get(p))
        assert response.status_code == 200, (path, response.content[:300])
        assert seconds < 1.0, f"{path} took {seconds:.2f} s"
    detail = anonymous.get(f"/api/v1/matches/{match_id}/").json()
    mover = make_auth_client(seats[detail["to_act"][0]])
    moves = mover.get(f"/api/v1/matches/{match_id}/legal-moves/").json()["moves"]
    response = mover.post(f"/api/v1/matches/{match_id}/moves/",
                          {"move": moves[0], "expected_ply": 0}, format="json")
    assert response.status_code == 201, response.content[:300]
    login = anonymous.post("/api/v1/auth/token/", {"username": seats[0].username,
                                                   "password": DEFAULT_PASSWORD},
                           format="json")
    assert login.status_code == 200, login.content[:300]


def test_graphql_is_served_while_redis_refuses(redis_refuses):
    response = APIClient().post("/graphql/", json.dumps({"query": "{ games { game } }"}),
                                content_type="application/json")
    assert response.status_code == 200
    assert response.json() == {"data": {"games": [{"game": "han"}, {"game": "hansa"}]}}


def test_the_limits_still_hold_counted_in_this_process(limits, redis_refuses):  # noqa: F811
    limits(anon_read="3/min", auth="2/min")
    client = APIClient()
    for _ in range(3):
        assert client.get("/api/v1/games/").status_code == 200
    assert_throttled(client.get("/api/v1/games/"))
    assert client.get("/api/v1/games/", REMOTE_ADDR="10.9.8.7").status_code == 200
    for _ in range(2):
        client.post("/api/v1/auth/token/", {"username": "x", "password": "y"}, format="json")
    assert_throttled(client.post("/api/v1/auth/token/", {"username": "x", "password": "y"},
                                 format="json"))


def test_the_counters_come_back_to_redis_by_themselves(settings, limits, monkeypatch):  # noqa: F811
    limits(anon_read="100/min")
    monkeypatch.setattr(counters, "RETRY_REDIS_AFTER_SECONDS", 0.0)
    real = settings.CACHES
    _point_cache_at(settings, f"redis://127.0.0.1:{unused_loopback_port()}/0")
    assert throttles.hit("anon_read", "addr:10.0.0.1") is None  # counted here
    assert counters.local_key_count() == 1
    settings.CACHES = real
    try:
        assert throttles.hit("anon_read", "addr:10.0.0.1") is None
        keys = get_redis_connection("default").keys(cache.make_key("throttle:*"))
        assert keys, "the count went back to Redis"
    finally:
        counters.forget_outage()


def test_an_unanswering_redis_costs_a_request_well_under_a_second(redis_black_hole):
    finished = threading.Event()
    result = {}

    def count():
        result["wait"], result["seconds"] = _timed(
            lambda: throttles.hit("anon_read", "addr:10.0.0.2"))
        finished.set()

    threading.Thread(target=count, daemon=True).start()
    assert finished.wait(5), "a hung Redis hung the request"
    assert result["wait"] is None
    assert result["seconds"] < 1.0
    # and the next requests do not wait again: the outage is known for a moment
    _, seconds = _timed(lambda: throttles.hit("anon_read", "addr:10.0.0.2"))
    assert seconds < 0.05


def test_the_local_count_is_bounded(limits, redis_refuses, monkeypatch):  # noqa: F811
    limits(anon_read="100/min")
    monkeypatch.setattr(counters, "MAX_LOCAL_KEYS", 50)
    for number in range(500):
        throttles.hit("anon_read", f"addr:10.1.{number // 250}.{number % 250}")
    assert counters.local_key_count() <= 50


# ------------------------------------------------------------ errors that still escape
REFUSED = redis.exceptions.ConnectionError(
    "Error 111 connecting to 127.0.0.1:6379. Connection refused.")


def _assert_unavailable_naming_nothing(response) -> None:
    error = assert_api_error(response, 503, "service_unavailable")
    assert response["Retry-After"].isdigit()
    for leak in LEAKS:
        assert leak not in error["message"], error


def test_a_redis_error_escaping_a_rest_view_is_a_503_naming_nothing(monkeypatch):
    def refuse(*args, **kwargs):
        raise REFUSED

    monkeypatch.setattr(throttles, "hit", refuse)
    _assert_unavailable_naming_nothing(APIClient().get("/api/v1/games/"))


def test_a_redis_error_outside_drf_is_a_503_naming_nothing(settings):
    settings.ROOT_URLCONF = "tests.infra.crash_urls"
    client = APIClient(raise_request_exception=False)
    _assert_unavailable_naming_nothing(client.get("/api/v1/test-redis-down/"))


def test_graphql_answers_a_redis_error_with_its_code_and_nothing_of_the_driver(monkeypatch):
    def refuse(*args, **kwargs):
        raise REFUSED

    # before execution (the rate limits' extension) ...
    monkeypatch.setattr(throttles, "hit", refuse)
    response = APIClient().post("/graphql/", json.dumps({"query": "{ games { game } }"}),
                                content_type="application/json")
    body = response.json()
    assert response.status_code == 503
    assert response["Retry-After"].isdigit()
    assert [e["extensions"]["code"] for e in body["errors"]] == ["service_unavailable"]
    assert not any(leak in json.dumps(body) for leak in LEAKS), body
    monkeypatch.undo()

    # ... and in a resolver
    from games import catalogue

    monkeypatch.setattr(catalogue, "list_games", refuse)
    body = APIClient().post("/graphql/", json.dumps({"query": "{ games { game } }"}),
                            content_type="application/json").json()
    assert [e["extensions"]["code"] for e in body["errors"]] == ["service_unavailable"]
    assert not any(leak in json.dumps(body) for leak in LEAKS), body


@pytest.mark.django_db(transaction=True)
def test_over_the_websocket_a_redis_error_is_coded_and_names_nothing(monkeypatch):
    import asyncio

    from channels.testing import WebsocketCommunicator

    from config.asgi import application

    def refuse(*args, **kwargs):
        raise REFUSED

    monkeypatch.setattr(throttles, "hit", refuse)

    async def one_query():
        socket = WebsocketCommunicator(application, "/graphql/",
                                       subprotocols=["graphql-transport-ws"])
        connected, _ = await socket.connect(timeout=10)
        assert connected
        await socket.send_json_to({"type": "connection_init", "payload": {}})
        assert (await socket.receive_json_from(timeout=10))["type"] == "connection_ack"
        await socket.send_json_to({"id": "1", "type": "subscribe", "payload": {
            "query": "mutation { login(username: \"x\", password: \"y\") { token } }"}})
        answer = await socket.receive_json_from(timeout=20)
        await socket.disconnect()
        return answer

    answer = asyncio.run(one_query())
    errors = answer["payload"] if answer["type"] == "error" else answer["payload"]["errors"]
    assert [error["extensions"]["code"] for error in errors] == ["service_unavailable"]
    assert not any(leak in json.dumps(answer) for leak in LEAKS), answer
