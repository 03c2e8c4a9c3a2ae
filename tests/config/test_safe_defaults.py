"""Safe defaults (issue 9, defect 3): the settings refuse to start with DEBUG off and the
development key; oversized bodies are a JSON 413 ``payload_too_large`` on REST and GraphQL;
no page we serve shows a setting's credentials or the caller's token, even with DEBUG on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client, RequestFactory
from django.views.debug import technical_500_response

from games.matches.models import Match

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def _start_settings(**env: str) -> subprocess.CompletedProcess:
    """Load config.settings in a fresh interpreter, as `manage.py` or daphne would."""
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY")}
    clean.update(DJANGO_SETTINGS_MODULE="config.settings", **env)
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); print('started')"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


def test_settings_refuse_to_start_with_debug_off_and_the_development_key():
    refused = _start_settings()  # nothing set: DEBUG defaults to off
    assert refused.returncode != 0
    assert "ImproperlyConfigured" in refused.stderr and "SECRET_KEY" in refused.stderr
    assert "started" not in refused.stdout

    assert _start_settings(DEBUG="false").returncode != 0
    assert _start_settings(DEBUG="true").stdout.strip() == "started"  # local development
    production = _start_settings(SECRET_KEY="a-real-secret-of-the-deployment-1234567890")
    assert production.returncode == 0 and production.stdout.strip() == "started"


# -- 413 payload_too_large ---------------------------------------------------------------
def _big_body(settings) -> str:
    padding = "a" * (settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)
    return json.dumps({"game": "han", "players": 3, "options": {"map": padding}})


@pytest.mark.parametrize("debug", [False, True])
@pytest.mark.parametrize("path", ["/api/v1/matches/", "/api/v1/auth/register/",
                                  "/api/v1/matches/1/moves/"])
def test_an_oversized_rest_body_is_a_json_413(settings, token, path, debug):
    settings.DEBUG = debug
    response = Client().post(path, data=_big_body(settings), content_type="application/json",
                             HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 413
    error = response.json()["error"]
    assert error["code"] == "payload_too_large"
    assert error["details"] == {"max_bytes": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert Match.objects.count() == 0


@pytest.mark.parametrize("debug", [False, True])
def test_an_oversized_graphql_body_is_a_json_413(settings, token, debug):
    settings.DEBUG = debug
    query = 'mutation { createMatch(game: "han", players: 3) { errors { code } } }'
    body = json.dumps({"query": query, "variables": {"pad": "a" * (
        settings.DATA_UPLOAD_MAX_MEMORY_SIZE + 10)}})
    response = Client().post("/graphql/", data=body, content_type="application/json",
                             HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 413
    assert response.json()["errors"][0]["extensions"]["code"] == "payload_too_large"
    assert Match.objects.count() == 0


def test_a_body_found_too_big_while_read_is_a_json_413(settings, rf):
    """Without a Content-Length to check up front (a chunked body under ASGI), Django
    raises RequestDataTooBig while the view reads: the middleware answers it."""
    from django.core.exceptions import RequestDataTooBig

    from infra.request_limits import PayloadTooLargeMiddleware

    middleware = PayloadTooLargeMiddleware(lambda request: None)
    for path, shape in (("/api/v1/matches/", "error"), ("/graphql/", "errors")):
        response = middleware.process_exception(rf.post(path), RequestDataTooBig())
        assert response.status_code == 413
        assert shape in json.loads(response.content)
    assert middleware.process_exception(rf.post("/api/v1/matches/"), ValueError()) is None


def test_a_small_body_still_passes(auth_client):
    response = auth_client.post("/api/v1/matches/", {"game": "han", "players": 3},
                                format="json")
    assert response.status_code == 201


# -- nothing secret on an error page --------------------------------------------------------
DB_PASSWORD = "db-password-that-must-not-show"
REDIS_PASSWORD = "redis-password-that-must-not-show"


@pytest.mark.parametrize("debug", [True, False])
def test_a_crash_page_shows_no_setting_credentials_and_no_token(settings, token, monkeypatch,
                                                                debug):
    settings.DEBUG = debug
    settings.DATABASE_URL = f"postgres://game:{DB_PASSWORD}@db.internal:5432/game"
    settings.REDIS_URL = f"redis://:{REDIS_PASSWORD}@redis.internal:6379/0"
    settings.CELERY_BROKER_URL = settings.REDIS_URL

    def crash(*args, **kwargs):
        # Locals as a resolver deep in a request might hold them.
        caller_token = token
        header = f"Token {token.key}"
        connection = {"url": settings.DATABASE_URL, "broker": settings.CELERY_BROKER_URL}
        raise RuntimeError(f"boom {id(caller_token)} {len(header)} {len(connection)}")

    monkeypatch.setattr("games.catalogue.list_games", crash)
    client = Client(raise_request_exception=False)
    session_cookie = "cookie-" + token.key[::-1]  # not in this file's source (shown too)
    page = client.get("/api/v1/games/", HTTP_AUTHORIZATION=f"Token {token.key}",
                      HTTP_COOKIE=f"sessionid={session_cookie}")
    assert page.status_code == 500
    # Under /api/ the URL policy (issue 10) answers JSON even with DEBUG on...
    assert page.json()["error"]["code"] == "server_error"
    shown = [page.content.decode()]
    if debug:
        # ...but Django's debug page still serves every other URL: the filter is what
        # hides the secrets there, for the same crash and the same request headers.
        request = RequestFactory().get("/admin/", HTTP_AUTHORIZATION=f"Token {token.key}",
                                       HTTP_COOKIE=f"sessionid={session_cookie}")
        try:
            crash()
        except RuntimeError:
            debug_page = technical_500_response(request, *sys.exc_info())
        shown.append(debug_page.content.decode())
        assert "RuntimeError" in shown[1]  # a debug page: the filter is what hides the rest
    for secret in (token.key, DB_PASSWORD, REDIS_PASSWORD, settings.SECRET_KEY,
                   session_cookie):
        assert all(secret not in text for text in shown), secret


def test_the_debug_page_of_a_graphql_crash_shows_no_token(settings, token, monkeypatch):
    settings.DEBUG = True

    def crash(*args, **kwargs):
        key = token.key
        raise RuntimeError(f"boom {len(key)}")

    # Outside the resolvers (which mask errors): the view's own authentication step.
    monkeypatch.setattr("games.graphql.views.GameGraphQLView.get_context", crash)
    page = Client(raise_request_exception=False).post(
        "/graphql/", data=json.dumps({"query": "{ me { username } }"}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert page.status_code == 500
    assert token.key not in page.content.decode()
    assert settings.SECRET_KEY not in page.content.decode()
