"""Helpers of the OAuth tests: an app, PKCE pairs, the authorization code flow driven
through Django's test client as a browser and an app would."""

from __future__ import annotations

import base64
import hashlib
import secrets
from urllib.parse import parse_qs, urlencode, urlsplit

from accounts.apps_oauth.models import App

REDIRECT = "https://app.example/callback"
ORIGIN = "https://app.example"


def make_app(owner=None, *, name="Example frontend", redirect=REDIRECT, origins=ORIGIN,
             **fields) -> App:
    return App.objects.create(user=owner, name=name, redirect_uris=redirect,
                              allowed_origins=origins, **fields)


def pkce_pair() -> tuple[str, str]:
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(
        hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def authorize_query(app: App, challenge: str | None, *, redirect=REDIRECT,
                    scope="account:read match:play", method="S256", state="st4te",
                    **extra) -> str:
    params = {"response_type": "code", "client_id": app.client_id, "redirect_uri": redirect,
              "scope": scope, "state": state, **extra}
    if challenge is not None:
        params["code_challenge"] = challenge
    if method is not None:
        params["code_challenge_method"] = method
    return "/oauth/authorize/?" + urlencode(params)


def consent(browser, app: App, challenge: str | None, **options):
    """The consent page shown, then allowed: the redirect response."""
    page = browser.get(authorize_query(app, challenge, **options))
    assert page.status_code == 200, page.content[:500]
    form = page.context["form"]
    data = {name: value for name, value in form.initial.items() if value is not None}
    data["allow"] = "Authorize"
    return browser.post("/oauth/authorize/", data)


def code_from(response) -> str:
    assert response.status_code == 302, response.content[:500]
    location = urlsplit(response["Location"])
    query = parse_qs(location.query)
    assert "code" in query, response["Location"]
    return query["code"][0]


def exchange(client, app: App, code: str, verifier: str | None, *, redirect=REDIRECT):
    data = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
            "client_id": app.client_id}
    if verifier is not None:
        data["code_verifier"] = verifier
    return client.post("/oauth/token/", data)


def refresh(client, app: App, refresh_token: str):
    return client.post("/oauth/token/", {"grant_type": "refresh_token",
                                         "refresh_token": refresh_token,
                                         "client_id": app.client_id})


def sign_in(browser, client, app: App, **options) -> dict:
    """The whole flow: the token response's JSON."""
    verifier, challenge = pkce_pair()
    code = code_from(consent(browser, app, challenge, **options))
    response = exchange(client, app, code, verifier)
    assert response.status_code == 200, response.content
    return response.json()
