"""The API's URL policy (infra/url_policy.py, infra/json_errors.py): both spellings of
every endpoint, POST included, and every error under /api/ or /graphql in JSON, with DEBUG
on and off."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

pytestmark = pytest.mark.django_db

BOTH_DEBUGS = pytest.mark.parametrize("debug", [False, True], ids=["debug-off", "debug-on"])


@pytest.fixture
def client():
    # Crashes must come back as responses, as a real server would send them.
    return Client(raise_request_exception=False)


@pytest.fixture(autouse=True)
def crash_urls(settings):
    settings.ROOT_URLCONF = "tests.infra.crash_urls"


def api_routes(patterns=None, prefix=""):
    """Every route of the project under api/ or graphql, as a sample path (ids are 999999)."""
    for pattern in patterns if patterns is not None else get_resolver("config.urls").url_patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from api_routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith(("api/", "graphql")):
            # any path parameter: a game name for <game>, else an id nothing has
            sample = re.sub(r"<(?:\w+:)?(\w+)>",
                            lambda m: "han" if m.group(1) == "game" else "999999", route)
            if "(" not in sample:  # a regex route with groups: no sample to build
                yield "/" + sample.lstrip("^").rstrip("$")


def error_code(response):
    body = response.json()
    if "errors" in body:
        return body["errors"][0]["extensions"]["code"]
    return body["error"]["code"]


def test_the_route_list_is_complete():
    routes = set(api_routes())
    assert {"/api/v1/me", "/api/v1/health", "/graphql/", "/api/v1/matches/999999/moves/"} <= routes


@BOTH_DEBUGS
def test_every_api_route_answers_both_spellings_of_get(client, settings, debug):
    settings.DEBUG = debug
    for route in api_routes():
        for spelling in (route, route.rstrip("/") if route.endswith("/") else route + "/"):
            response = client.get(spelling)
            assert response.status_code != 301, spelling
            if response.status_code == 404:
                # a missing match (or other object), never a missing endpoint
                assert error_code(response) != "not_found", spelling


@BOTH_DEBUGS
@pytest.mark.parametrize("path", ["/api/v1/auth/register/", "/api/v1/auth/register"])
def test_post_to_either_spelling_is_served(client, settings, debug, path):
    settings.DEBUG = debug
    response = client.post(
        path, data=json.dumps({"username": "slashless", "password": "a-long-passphrase-42"}),
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    assert response.json()["user"]["username"] == "slashless"


@BOTH_DEBUGS
@pytest.mark.parametrize("path", ["/graphql/", "/graphql"])
def test_graphql_post_to_either_spelling_is_served(client, settings, debug, path):
    settings.DEBUG = debug
    response = client.post(path, data=json.dumps({"query": "{ games { game } }"}),
                           content_type="application/json")
    assert response.status_code == 200
    assert {"game": "han"} in response.json()["data"]["games"]


@BOTH_DEBUGS
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
@pytest.mark.parametrize("path", ["/api/v1/no-such-thing", "/api/v1/no-such-thing/", "/api/x"])
def test_unknown_api_url_is_a_json_404_naming_the_path(client, settings, debug, method, path):
    settings.DEBUG = debug
    if method == "get":
        response = client.get(path)
    else:
        response = getattr(client, method)(path, data="{}", content_type="application/json")
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == {
        "code": "not_found", "message": f"No API endpoint at {path}.", "details": {},
    }


@BOTH_DEBUGS
def test_unknown_graphql_path_is_a_graphql_shaped_404(client, settings, debug):
    settings.DEBUG = debug
    response = client.post("/graphql/nothing", data="{}", content_type="application/json")
    assert response.status_code == 404
    assert response.json()["errors"][0]["extensions"]["code"] == "not_found"


@BOTH_DEBUGS
@pytest.mark.parametrize("path", ["/api/v1/docs/", "/api/v1/docs", "/api/v1/health"])
def test_wrong_method_is_a_json_405(client, settings, debug, path):
    settings.DEBUG = debug
    response = client.delete(path)
    assert response.status_code == 405
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"]["code"] == "method_not_allowed"


@BOTH_DEBUGS
@pytest.mark.parametrize("path", ["/api/v1/test-crash/", "/api/v1/test-crash",
                                  "/api/v1/test-drf-crash/"])
def test_a_crash_under_api_is_a_json_500_without_the_traceback(client, settings, debug, path):
    settings.DEBUG = debug
    for method in ("get", "post"):
        response = getattr(client, method)(path)
        assert response.status_code == 500
        assert response["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "server_error"
        assert b"s3cr3t" not in response.content
        assert b"Traceback" not in response.content


@BOTH_DEBUGS
def test_a_crash_under_graphql_is_a_graphql_shaped_500(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/graphql/test-crash")
    assert response.status_code == 500
    assert response.json()["errors"][0]["extensions"]["code"] == "server_error"
    assert b"s3cr3t" not in response.content


@BOTH_DEBUGS
def test_http404_from_a_plain_view_is_json(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/api/v1/test-404")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


@BOTH_DEBUGS
def test_pages_outside_the_api_keep_django_s_html(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/no-such-page/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


def test_reverse_still_gives_the_canonical_spelling():
    from django.urls import reverse

    assert reverse("match-moves", kwargs={"match_id": 3}) == "/api/v1/matches/3/moves/"
    assert reverse("me") == "/api/v1/me"
