"""Which origins may call cross-origin (issue 22, item 1): with DEBUG any loopback origin
(any port, localhost, 127.0.0.1 or [::1]) over HTTP and on both websockets (/graphql/ and
/play/), a configured CORS_ALLOWED_ORIGINS adds to them instead of replacing them, and with
DEBUG off only the configured list is allowed. Every request header the docs offer a
client passes a preflight.

The settings are read from config/settings.py in a subprocess with the environment of
each case (the module decides at import time), then applied here, so the test covers the
rule as the settings module writes it and the behaviour it gives HTTP and websockets."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

ROOT = Path(__file__).resolve().parents[2]
CONFIGURED = "https://play.example.com"
LOOPBACK = ["http://localhost:5173", "http://127.0.0.1:4321", "http://[::1]:8081",
            "http://localhost", "https://localhost:9443"]
FOREIGN = ["http://evil.example", "http://localhost.evil.example:5173",
           "http://127.0.0.1.evil.example", "http://10.0.0.2:5173", "null"]


def cors_settings(debug: bool, origins: str) -> dict:
    """CORS_ALLOWED_ORIGINS and CORS_ALLOWED_ORIGIN_REGEXES as config/settings.py makes
    them for this environment."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings",
           "DEBUG": "true" if debug else "false", "CORS_ALLOWED_ORIGINS": origins,
           "SECRET_KEY": "cors-rule-test-key-not-the-development-one"}
    code = ("import json; from django.conf import settings as s; "
            "print(json.dumps({'CORS_ALLOWED_ORIGINS': list(s.CORS_ALLOWED_ORIGINS), "
            "'CORS_ALLOWED_ORIGIN_REGEXES': list(s.CORS_ALLOWED_ORIGIN_REGEXES), "
            "'CORS_ALLOW_ALL_ORIGINS': getattr(s, 'CORS_ALLOW_ALL_ORIGINS', False)}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True,
                         capture_output=True, text=True, timeout=120).stdout
    return json.loads(out.strip().splitlines()[-1])


CASES = {
    "debug": (True, ""),
    "debug+list": (True, CONFIGURED),
    "production": (False, CONFIGURED),
}


@pytest.fixture(scope="module")
def rules():
    return {name: cors_settings(*case) for name, case in CASES.items()}


@pytest.fixture
def apply(settings, rules):
    def apply_case(name: str) -> None:
        for key, value in rules[name].items():
            setattr(settings, key, value)
    return apply_case


def expected(case: str, origin: str) -> bool:
    debug, configured = CASES[case]
    return origin == configured or (debug and origin in LOOPBACK)


def test_the_settings_module_adds_loopback_to_the_list_only_with_debug(rules):
    assert rules["debug"]["CORS_ALLOWED_ORIGINS"] == []
    assert rules["debug"]["CORS_ALLOWED_ORIGIN_REGEXES"]
    assert rules["debug+list"]["CORS_ALLOWED_ORIGINS"] == [CONFIGURED]
    assert rules["debug+list"]["CORS_ALLOWED_ORIGIN_REGEXES"]
    assert rules["production"] == {"CORS_ALLOWED_ORIGINS": [CONFIGURED],
                                   "CORS_ALLOWED_ORIGIN_REGEXES": [],
                                   "CORS_ALLOW_ALL_ORIGINS": False}


# ------------------------------------------------------------------------------------ HTTP
def http_grants(client, origin: str) -> dict[str, bool]:
    granted = {}
    preflight = client.options("/api/v1/matches/", HTTP_ORIGIN=origin,
                               HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
                               HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization")
    granted["preflight"] = preflight.get("Access-Control-Allow-Origin") == origin
    rest = client.get("/api/v1/games/", HTTP_ORIGIN=origin)
    granted["rest"] = rest.get("Access-Control-Allow-Origin") == origin
    graphql = client.post("/graphql/", json.dumps({"query": "{ games { game } }"}),
                          content_type="application/json", HTTP_ORIGIN=origin)
    assert graphql.status_code == 200
    granted["graphql"] = graphql.get("Access-Control-Allow-Origin") == origin
    return granted


@pytest.mark.django_db
@pytest.mark.parametrize("case", list(CASES))
def test_http_grants_follow_the_rule(client, apply, case):
    apply(case)
    for origin in [*LOOPBACK, CONFIGURED, *FOREIGN]:
        want = expected(case, origin)
        assert http_grants(client, origin) == {"preflight": want, "rest": want,
                                               "graphql": want}, (case, origin)


# ------------------------------------------------------------------------------ websockets
def handshake(path: str, origin: str) -> bool:
    from config.asgi import application

    headers = [(b"host", b"testserver"), (b"origin", origin.encode())]
    protocols = ["graphql-transport-ws"] if path == "/graphql/" else None

    async def attempt():
        communicator = WebsocketCommunicator(application, path, headers=headers,
                                             subprotocols=protocols)
        connected, _ = await communicator.connect(timeout=5)
        await communicator.disconnect()
        return connected

    return asyncio.run(attempt())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/graphql/", "/play/"])
@pytest.mark.parametrize("case", list(CASES))
def test_websocket_handshakes_follow_the_same_rule(apply, case, path):
    apply(case)
    for origin in ["http://localhost:5173", "http://[::1]:8081", CONFIGURED,
                   "http://evil.example", "http://localhost.evil.example:5173"]:
        assert handshake(path, origin) is expected(case, origin), (case, path, origin)


# ---------------------------------------------------------------------- request headers
#: every request header the docs tell a client to send (a test below finds each in them)
DOCUMENTED_REQUEST_HEADERS = ["Authorization", "Content-Type", "Accept", "Accept-Language",
                              "If-None-Match", "Last-Event-ID"]
DOCS = ["README.md", "docs/api.md", "docs/frontend.md", "docs/feed.md"]


def test_the_docs_offer_these_request_headers():
    text = "\n".join((ROOT / name).read_text() for name in DOCS)
    missing = [name for name in DOCUMENTED_REQUEST_HEADERS if name not in text]
    assert not missing, missing


@pytest.mark.django_db
@pytest.mark.parametrize("path, method", [("/api/v1/matches/1/", "GET"),
                                          ("/api/v1/matches/1/events/", "GET"),
                                          ("/api/v1/stream/", "GET"),
                                          ("/api/v1/matches/1/moves/", "POST"),
                                          ("/graphql/", "POST")])
def test_a_preflight_allows_every_documented_request_header(client, apply, path, method):
    apply("debug+list")
    for origin in [CONFIGURED, "http://localhost:5173"]:
        response = client.options(
            path, HTTP_ORIGIN=origin, HTTP_ACCESS_CONTROL_REQUEST_METHOD=method,
            HTTP_ACCESS_CONTROL_REQUEST_HEADERS=", ".join(
                name.lower() for name in DOCUMENTED_REQUEST_HEADERS))
        assert response.status_code == 200
        assert response["Access-Control-Allow-Origin"] == origin
        allowed = {name.strip() for name in
                   response["Access-Control-Allow-Headers"].lower().split(",")}
        assert {name.lower() for name in DOCUMENTED_REQUEST_HEADERS} <= allowed
        assert method in response["Access-Control-Allow-Methods"]


@pytest.mark.django_db
def test_the_answers_expose_what_a_poller_and_a_stream_read(client, apply):
    apply("production")
    response = client.get("/api/v1/games/", HTTP_ORIGIN=CONFIGURED)
    exposed = {name.strip().lower() for name in
               response["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "retry-after", "content-language"} <= exposed
