"""Scopes on REST (docs/api.md "Scopes"): every operation declares the scope it needs, a
credential without it gets 403 ``insufficient_scope`` naming it and nothing is written, a
public read needs none, and a first-party token or a session carries every scope."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.core.exceptions import ImproperlyConfigured
from rest_framework.test import APIClient

from accounts.scopes import ALL_SCOPES, SCOPES, scopes_of
from games.matches.models import Match
from infra.api_views import PUBLIC, ApiView
from tests.credentials import ScopedCredential, scoped_client
from tests.games.api.rest_operations import rest_operations
from tests.games.support import API

pytestmark = pytest.mark.django_db

NEW_MATCH = {"game": "hansa", "players": 2}


def test_every_rest_operation_declares_a_known_scope_or_none():
    seen = 0
    for route, methods, view, declared in rest_operations():
        assert declared is not None, f"{route}: {view} declares no required_scopes"
        for method in methods:
            seen += 1
            assert method in declared, f"{method} {route}: no scope declared"
            assert declared[method] is PUBLIC or declared[method] in ALL_SCOPES, (route, method)
    assert seen > 40  # the walk found the API (a broken walk would pass vacuously)


def test_a_view_that_forgets_a_method_s_scope_cannot_be_defined():
    with pytest.raises(ImproperlyConfigured, match="POST"):
        class Forgetful(ApiView):  # noqa: F841 - defining it is the test
            required_scopes = {"GET": PUBLIC}

            def get(self, request): ...

            def post(self, request): ...


def test_a_credential_without_the_scope_is_refused_naming_it_and_writes_nothing(user):
    response = scoped_client(user, "account:read match:play").post(
        f"{API}/matches/", NEW_MATCH, format="json")
    assert response.status_code == 403
    error = response.json()["error"]
    assert error["code"] == "insufficient_scope"
    assert error["details"] == {"scope": "match:write"}
    assert "match:write" in error["message"]
    assert not Match.objects.exists()


def test_the_scope_lets_the_operation_through(user):
    response = scoped_client(user, "match:write").post(f"{API}/matches/", NEW_MATCH,
                                                       format="json")
    assert response.status_code == 201, response.json()
    assert Match.objects.count() == 1


@pytest.mark.parametrize(("method", "path", "needed"), [
    ("get", "/me", "account:read"),
    ("delete", "/me", "account:write"),
    ("get", "/me/export", "account:write"),
    ("get", "/invitations/", "account:read"),
    ("post", "/matches/999999/moves/", "match:play"),
    ("post", "/matches/999999/resign/", "match:play"),
    ("post", "/matches/999999/join/", "match:write"),
    ("post", "/quick-match/", "match:write"),
])
def test_each_kind_of_operation_names_its_own_scope(user, method, path, needed):
    others = " ".join(sorted(ALL_SCOPES - {needed}))
    response = getattr(scoped_client(user, others), method)(f"{API}{path}", {},
                                                            format="json")
    assert response.status_code == 403, (path, response.json())
    assert response.json()["error"]["details"] == {"scope": needed}
    # with the scope, the view runs: whatever it answers, no scope refusal
    response = getattr(scoped_client(user, needed), method)(f"{API}{path}", {},
                                                            format="json")
    assert response.status_code != 403 or \
        response.json()["error"]["code"] != "insufficient_scope"


def test_a_public_read_needs_no_scope(user):
    assert scoped_client(user, "").get(f"{API}/matches/").status_code == 200
    assert scoped_client(user, "").get(f"{API}/games/").status_code == 200


def test_first_party_tokens_and_sessions_carry_every_scope(user, auth_client):
    assert auth_client.get(f"{API}/me").status_code == 200
    assert auth_client.post(f"{API}/matches/", NEW_MATCH, format="json").status_code == 201
    session = APIClient()
    session.force_login(user)
    assert session.get(f"{API}/me").status_code == 200
    assert scopes_of(user, None) == ALL_SCOPES == frozenset(SCOPES)


def test_an_anonymous_caller_is_asked_to_sign_in_not_for_a_scope(api_client):
    response = api_client.post(f"{API}/matches/", NEW_MATCH, format="json")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_unknown_scopes_grant_nothing(user):
    assert scopes_of(user, ScopedCredential("match:write admin:all")) == {"match:write"}
    assert scopes_of(SimpleNamespace(is_authenticated=False), None) == frozenset()
    response = scoped_client(user, "admin:all everything").get(f"{API}/me")
    assert response.json()["error"]["details"] == {"scope": "account:read"}


def test_the_feed_stream_needs_account_read(user, monkeypatch):
    from games.api.feed import views

    async def limited_token(header):
        return SimpleNamespace(user=user, user_id=user.pk, key="k", scope="match:play")

    monkeypatch.setattr(views, "_token_of_async", limited_token)
    response = APIClient().get(f"{API}/stream/", HTTP_AUTHORIZATION="Token k")
    assert response.status_code == 403
    assert response.json()["error"] == {
        "code": "insufficient_scope", "message": response.json()["error"]["message"],
        "details": {"scope": "account:read"}}


def test_the_openapi_document_names_each_operation_s_scope(api_client):
    document = api_client.get(f"{API}/schema/?format=json").json()
    flows = document["components"]["securitySchemes"]["oauth2"]["flows"]
    assert flows["authorizationCode"]["authorizationUrl"] == "/oauth/authorize/"
    assert flows["authorizationCode"]["tokenUrl"] == "/oauth/token/"
    assert set(flows["authorizationCode"]["scopes"]) == ALL_SCOPES
    paths = document["paths"]
    assert {"oauth2": ["match:write"]} in paths["/api/v1/matches/"]["post"]["security"]
    assert {"oauth2": ["match:play"]} in \
        paths["/api/v1/matches/{match_id}/moves/"]["post"]["security"]
    assert {"oauth2": ["account:read"]} in paths["/api/v1/me"]["get"]["security"]
    assert {"oauth2": ["account:read"]} in paths["/api/v1/stream/"]["get"]["security"]
    reads = paths["/api/v1/matches/{match_id}/"]["get"]["security"]
    assert {"oauth2": []} in reads and reads[-1] == {}  # a token is still optional
    assert paths["/api/v1/games/"]["get"]["security"] == []
    for path, operations in paths.items():
        for method, operation in operations.items():
            security = operation.get("security")
            if method in {"get", "post", "put", "patch", "delete"} and security:
                assert any("oauth2" in entry for entry in security), (method, path)


def test_the_refusal_speaks_german_with_the_same_code(user):
    response = scoped_client(user, "").get(f"{API}/me?lang=de")
    error = response.json()["error"]
    assert error["code"] == "insufficient_scope" and error["details"] == {"scope": "account:read"}
    assert "Berechtigungsumfang account:read" in error["message"]
