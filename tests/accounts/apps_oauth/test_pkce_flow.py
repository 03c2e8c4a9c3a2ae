"""The authorization code flow with PKCE end to end (issue 38): sign in on our page,
consent naming the app and the scopes, a code, a token for the verifier, the API with it;
the RFC 8414 metadata says what is supported."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.apps_oauth.models import AppUse
from tests.accounts.apps_oauth.support import (
    REDIRECT,
    authorize_query,
    make_app,
    pkce_pair,
    sign_in,
)
from tests.conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db


def test_signing_in_asks_for_the_password_on_our_page_then_consent(user):
    app = make_app(name="Lichess-like board")
    browser = Client()
    _verifier, challenge = pkce_pair()
    query = authorize_query(app, challenge)
    first = browser.get(query)
    assert first.status_code == 302 and first["Location"].startswith("/oauth/login/")
    login = browser.get(first["Location"])
    assert login.status_code == 200 and b'type="password"' in login.content
    signed_in = browser.post("/oauth/login/", {"username": user.username,
                                               "password": DEFAULT_PASSWORD,
                                               "next": query})
    assert signed_in.status_code == 302 and signed_in["Location"] == query
    page = browser.get(query)
    assert page.status_code == 200
    text = page.content.decode()
    assert "Lichess-like board" in text
    assert "Play moves, resign and reclaim a seat in your games." in text
    assert "See your account" in text
    assert "<script" not in text  # usable without JavaScript: a plain form


def test_the_consent_page_speaks_german(user):
    app = make_app()
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge), HTTP_ACCEPT_LANGUAGE="de")
    assert page.status_code == 200
    assert "Züge spielen" in page.content.decode()


def test_code_and_verifier_give_a_token_that_opens_the_api(user):
    app = make_app()
    browser = Client()
    browser.force_login(user)
    body = sign_in(browser, Client(), app)
    assert body["token_type"] == "Bearer"
    assert body["access_token"].startswith("hqa_") and body["refresh_token"].startswith("hqr_")
    assert set(body["scope"].split()) == {"account:read", "match:play"}
    assert 0 < body["expires_in"] <= 3600
    me = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {body['access_token']}")
    assert me.status_code == 200 and me.json()["username"] == user.username
    assert AppUse.objects.filter(user=user, app=app).exists()  # the last use noted


def test_tokens_are_stored_hashed(user):
    from oauth2_provider.models import AccessToken, RefreshToken

    app = make_app()
    browser = Client()
    browser.force_login(user)
    body = sign_in(browser, Client(), app)
    for model, key in ((AccessToken, body["access_token"]),
                       (RefreshToken, body["refresh_token"])):
        row = model.objects.get(user=user)
        assert row.token == "" and row.token_checksum and key not in row.token_checksum


def test_denying_consent_sends_access_denied_back(user):
    app = make_app()
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge))
    data = {k: v for k, v in page.context["form"].initial.items() if v is not None}
    refused = browser.post("/oauth/authorize/", data)
    assert refused.status_code == 302
    assert refused["Location"].startswith(REDIRECT + "?") and "error=access_denied" in \
        refused["Location"]


def test_metadata_names_the_endpoints_and_only_what_is_supported(client):
    body = client.get("/.well-known/oauth-authorization-server").json()
    for key in ("authorization_endpoint", "token_endpoint", "revocation_endpoint",
                "introspection_endpoint"):
        assert key in body
    assert body["token_endpoint"].endswith("/oauth/token/")
    assert body["code_challenge_methods_supported"] == ["S256"]
    assert body["response_types_supported"] == ["code"]
    assert set(body["grant_types_supported"]) == {"authorization_code", "refresh_token"}
    assert "match:play" in body["scopes_supported"]


def test_revocation_rfc7009_ends_the_token(user):
    app = make_app()
    browser = Client()
    browser.force_login(user)
    body = sign_in(browser, Client(), app)
    revoked = Client().post("/oauth/revoke/", {"token": body["access_token"],
                                               "client_id": app.client_id})
    assert revoked.status_code == 200
    me = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {body['access_token']}")
    assert me.status_code == 401 and me.json()["error"]["code"] == "not_authenticated"


def test_introspection_answers_the_app_about_its_own_tokens_only(user):
    app, other = make_app(), make_app(name="Other")
    browser = Client()
    browser.force_login(user)
    body = sign_in(browser, Client(), app)
    mine = Client().post("/oauth/introspect/", {"token": body["access_token"],
                                                "client_id": app.client_id}).json()
    assert mine["active"] is True and mine["username"] == user.username
    assert set(mine["scope"].split()) == {"account:read", "match:play"}
    theirs = Client().post("/oauth/introspect/", {"token": body["access_token"],
                                                  "client_id": other.client_id}).json()
    assert theirs == {"active": False}
    assert Client().post("/oauth/introspect/", {"token": "hqa_nope",
                                                "client_id": app.client_id}).json() == {
        "active": False}


def test_the_sign_in_page_holds_back_password_guessing_as_the_api_does(user):
    """accounts/failed_logins.py: after 3 free failures an address waits, even with the
    right password (FREE_FAILURES, then 1 s, 2 s ...)."""
    browser = Client()
    for _ in range(4):
        wrong = browser.post("/oauth/login/", {"username": user.username,
                                               "password": "not-the-password"})
        assert wrong.status_code == 200 and b"error" in wrong.content
    held = browser.post("/oauth/login/", {"username": user.username,
                                          "password": DEFAULT_PASSWORD})
    assert held.status_code == 429 and int(held["Retry-After"]) >= 1
    assert "_auth_user_id" not in browser.session
