"""What the authorization server refuses (issue 38, "Must show"): a code without or with
the wrong verifier, ``plain`` or no challenge, redirect URI tricks, a reused code, a
reused refresh token (which revokes the family), an unknown or suspended app, one app
redeeming another's code. Each refusal changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, RefreshToken

from tests.accounts.apps_oauth.support import (
    REDIRECT,
    authorize_query,
    code_from,
    consent,
    exchange,
    make_app,
    pkce_pair,
    refresh,
    sign_in,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def browser(user):
    browser = Client()
    browser.force_login(user)
    return browser


def _refused(response, error="invalid_grant"):
    assert response.status_code in (400, 401), response.content
    assert response.json()["error"] == error, response.content
    assert not AccessToken.objects.exists()


def test_an_intercepted_code_without_the_verifier_is_worthless(browser):
    app = make_app()
    _verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge))
    _refused(exchange(Client(), app, code, None), "invalid_request")


def test_the_wrong_verifier_is_refused(browser):
    app = make_app()
    _verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge))
    other_verifier, _ = pkce_pair()
    _refused(exchange(Client(), app, code, other_verifier))


@pytest.mark.parametrize("method, challenge", [
    ("plain", "a" * 43),    # the verifier itself as the challenge
    (None, "a" * 43),       # no method: plain by default
])
def test_plain_pkce_is_refused(browser, method, challenge):
    app = make_app()
    page = browser.get(authorize_query(app, challenge, method=method))
    assert page.status_code == 302  # the error goes back to the (exact, registered) URI
    assert page["Location"].startswith(REDIRECT + "?")
    assert "error=invalid_request" in page["Location"] and "code=" not in page["Location"]


def test_no_challenge_at_all_is_refused(browser):
    app = make_app()
    page = browser.get(authorize_query(app, None, method=None))
    assert "code=" not in page.get("Location", "")
    assert "error=invalid_request" in page["Location"]


@pytest.mark.parametrize("trick", [
    "https://app.example/callback/evil",      # suffix
    "https://app.example/callbackx",          # suffix without a slash
    "https://app.example/",                   # prefix
    "https://app.example:8443/callback",      # other port
    "https://app.example/callback#frag",      # fragment
    "https://app.example/callback?x=1",       # added query
    "http://app.example/callback",            # other scheme
    "https://APP.example/callback",           # other spelling of the host
    "https://app.example.evil.test/callback",  # another host sharing the prefix
])
def test_redirect_uri_tricks_are_refused_without_a_redirect(browser, trick):
    app = make_app()
    _verifier, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge, redirect=trick))
    # never sent anywhere: the error is shown on our page
    assert page.status_code == 400 or (page.status_code == 200 and page.context["error"])
    assert "Location" not in page


def test_the_token_endpoint_also_wants_the_exact_redirect_uri(browser):
    app = make_app()
    verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge))
    _refused(exchange(Client(), app, code, verifier, redirect=REDIRECT + "/x"),
             "invalid_request")


def test_a_code_works_once(browser):
    app = make_app()
    verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge))
    assert exchange(Client(), app, code, verifier).status_code == 200
    again = exchange(Client(), app, code, verifier)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"


def test_one_app_cannot_redeem_another_apps_code(browser):
    app, other = make_app(), make_app(name="Other", redirect=REDIRECT)
    verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge))
    _refused(exchange(Client(), other, code, verifier))


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_family(browser, user):
    app = make_app()
    first = sign_in(browser, Client(), app)
    second = refresh(Client(), app, first["refresh_token"])
    assert second.status_code == 200, second.content
    second = second.json()
    assert second["refresh_token"] != first["refresh_token"]
    assert second["access_token"] != first["access_token"]
    # the old access token ended with its rotation
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + first["access_token"]
                        ).status_code == 401
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + second["access_token"]
                        ).status_code == 200
    # an attacker replays the first refresh token: refused, and the whole family ends
    replay = refresh(Client(), app, first["refresh_token"])
    assert replay.status_code == 400 and replay.json()["error"] == "invalid_grant"
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + second["access_token"]
                        ).status_code == 401
    assert refresh(Client(), app, second["refresh_token"]).status_code == 400
    assert not RefreshToken.objects.filter(user=user, revoked__isnull=True).exists()


def test_an_unknown_app_is_refused_on_our_page(browser):
    app = make_app()
    _verifier, challenge = pkce_pair()
    query = authorize_query(app, challenge).replace(app.client_id, "no-such-client")
    page = browser.get(query)
    assert "Location" not in page
    assert page.status_code == 400 or page.context["error"]


def test_a_suspended_app_signs_nobody_in_and_its_tokens_stop_at_once(browser):
    app = make_app()
    body = sign_in(browser, Client(), app)
    bearer = {"HTTP_AUTHORIZATION": "Bearer " + body["access_token"]}
    assert Client().get("/api/v1/me", **bearer).status_code == 200
    app.active = False
    app.save()
    refused = Client().get("/api/v1/me", **bearer)
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "not_authenticated"
    assert refresh(Client(), app, body["refresh_token"]).status_code in (400, 401)
    _verifier, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge))
    assert "Location" not in page and (page.status_code == 400 or page.context["error"])


def test_only_the_scopes_of_the_service_can_be_asked(browser):
    app = make_app()
    _verifier, challenge = pkce_pair()
    page = browser.get(authorize_query(app, challenge, scope="account:read admin"))
    assert "error=invalid_scope" in page["Location"]


def test_the_password_and_implicit_grants_do_not_exist(user):
    app = make_app()
    from tests.conftest import DEFAULT_PASSWORD

    password = Client().post("/oauth/token/", {"grant_type": "password",
                                               "username": user.username,
                                               "password": DEFAULT_PASSWORD,
                                               "client_id": app.client_id})
    assert password.status_code in (400, 401) and not AccessToken.objects.exists()
    browser = Client()
    browser.force_login(user)
    _verifier, challenge = pkce_pair()
    implicit = browser.get(authorize_query(app, challenge, response_type="token"))
    assert "access_token" not in implicit.get("Location", "")
