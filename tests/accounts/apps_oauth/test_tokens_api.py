"""Personal access tokens, connected apps and an owner's apps over REST (issue 38)."""

from __future__ import annotations

import pytest
from django.test import Client
from oauth2_provider.models import AccessToken, RefreshToken

from accounts.apps_oauth.models import App, PersonalToken
from accounts.scopes import ALL_SCOPES, scopes_of
from tests.accounts.apps_oauth.support import REDIRECT, make_app, sign_in

pytestmark = pytest.mark.django_db

TOKENS = "/api/v1/account/tokens/"


def test_a_personal_token_is_made_listed_used_and_revoked(auth_client, user):
    made = auth_client.post(TOKENS, {"name": "my bot", "scopes": ["match:play", "account:read"],
                                     "expires_in_days": 30}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    key = body["token"]
    assert key.startswith("hqp_") and body["scopes"] == ["account:read", "match:play"]
    assert body["expires"] is not None and body["last_used"] is None
    stored = AccessToken.objects.get(user=user, application=None)
    assert stored.token == "" and key not in stored.token_checksum  # only the checksum
    me = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert me.status_code == 200 and me.json()["username"] == user.username
    listed = auth_client.get(TOKENS).json()["results"]
    assert [row["name"] for row in listed] == ["my bot"]
    assert listed[0]["last_used"] is not None and "token" not in listed[0]
    assert scopes_of(user, stored) == frozenset({"match:play", "account:read"})
    assert auth_client.delete(f"{TOKENS}{body['id']}/").status_code == 204
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {key}").status_code == 401
    assert auth_client.get(TOKENS).json()["results"] == []


def test_a_personal_token_without_expiry_says_so(auth_client):
    body = auth_client.post(TOKENS, {"name": "forever", "scopes": ["account:read"]},
                            format="json").json()
    assert body["expires"] is None


def test_an_expired_personal_token_is_refused(auth_client, user):
    from datetime import timedelta

    from django.utils import timezone

    key = auth_client.post(TOKENS, {"name": "short", "scopes": ["account:read"],
                                    "expires_in_days": 1}, format="json").json()["token"]
    AccessToken.objects.filter(user=user).update(expires=timezone.now() - timedelta(seconds=1))
    refused = Client().get("/api/v1/me", HTTP_AUTHORIZATION=f"Bearer {key}")
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "not_authenticated"


@pytest.mark.parametrize("body", [
    {"name": "x", "scopes": ["admin"]},
    {"name": "x", "scopes": []},
    {"name": "", "scopes": ["account:read"]},
    {"name": "x", "scopes": ["account:read"], "expires_in_days": 0},
])
def test_bad_personal_token_requests_change_nothing(auth_client, body):
    response = auth_client.post(TOKENS, body, format="json")
    assert response.status_code == 400
    assert not PersonalToken.objects.exists() and not AccessToken.objects.exists()


def test_someone_elses_token_cannot_be_revoked(auth_client, make_user, make_auth_client):
    other = make_user()
    made = make_auth_client(other).post(TOKENS, {"name": "theirs",
                                                 "scopes": ["account:read"]}, format="json")
    response = auth_client.delete(f"{TOKENS}{made.json()['id']}/")
    assert response.status_code == 404
    assert PersonalToken.objects.filter(user=other).exists()


def test_first_party_credentials_grant_every_scope(auth_client, token):
    assert scopes_of(token.user, token) == ALL_SCOPES
    assert scopes_of(None, None) == frozenset()


def test_connected_apps_are_listed_and_one_is_disconnected(auth_client, user):
    app, other = make_app(name="Board A"), make_app(name="Board B")
    browser = Client()
    browser.force_login(user)
    first = sign_in(browser, Client(), app)
    second = sign_in(browser, Client(), other, scope="account:read")
    Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + first["access_token"])
    listed = auth_client.get("/api/v1/account/apps/").json()["results"]
    assert [(row["app"]["name"], row["scopes"]) for row in listed] == [
        ("Board A", ["account:read", "match:play"]), ("Board B", ["account:read"])]
    assert listed[0]["last_used"] is not None
    assert auth_client.delete(f"/api/v1/account/apps/{app.pk}/").status_code == 204
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + first["access_token"]
                        ).status_code == 401
    assert not RefreshToken.objects.filter(user=user, application=app,
                                           revoked__isnull=True).exists()
    assert Client().get("/api/v1/me", HTTP_AUTHORIZATION="Bearer " + second["access_token"]
                        ).status_code == 200
    connected = auth_client.get("/api/v1/account/apps/").json()["results"]
    assert [row["app"]["name"] for row in connected] == ["Board B"]
    assert auth_client.delete(f"/api/v1/account/apps/{app.pk}/").status_code == 404


def test_an_owner_registers_edits_and_suspends_an_app(auth_client, user):
    made = auth_client.post("/api/v1/apps/", {
        "name": "My board", "homepage": "https://board.example",
        "redirect_uris": ["https://board.example/cb"],
        "allowed_origins": ["https://board.example"]}, format="json")
    assert made.status_code == 201, made.content
    body = made.json()
    assert body["active"] is True and body["client_id"]
    app = App.objects.get(pk=body["id"])
    assert app.user == user and app.client_type == "public"
    assert app.authorization_grant_type == "authorization-code"
    changed = auth_client.patch(f"/api/v1/apps/{app.pk}/",
                                {"allowed_origins": ["https://board.example",
                                                     "https://beta.board.example"]},
                                format="json")
    assert changed.status_code == 200
    assert changed.json()["allowed_origins"] == ["https://board.example",
                                                 "https://beta.board.example"]
    suspended = auth_client.patch(f"/api/v1/apps/{app.pk}/", {"active": False}, format="json")
    assert suspended.status_code == 200 and suspended.json()["active"] is False
    again = auth_client.patch(f"/api/v1/apps/{app.pk}/", {"active": True}, format="json")
    assert again.status_code == 403 and again.json()["error"]["code"] == "app_suspended"
    assert [row["id"] for row in auth_client.get("/api/v1/apps/").json()["results"]] == [app.pk]


def test_a_page_on_the_developers_machine_registers_with_http_origins(auth_client):
    """A page under development is served over plain http on localhost (the TS client's
    example: http://localhost:5173); its origin is accepted like its redirect URI."""
    made = auth_client.post("/api/v1/apps/", {
        "name": "Local board", "redirect_uris": ["http://localhost:5173/example/"],
        "allowed_origins": ["http://localhost:5173"]}, format="json")
    assert made.status_code == 201, made.content
    assert made.json()["allowed_origins"] == ["http://localhost:5173"]
    assert App.objects.get(pk=made.json()["id"]).origins() == ["http://localhost:5173"]


@pytest.mark.parametrize("field, value", [
    ("allowed_origins", ["https://board.example/"]),
    ("allowed_origins", ["https://board.example/path"]),
    ("allowed_origins", ["*"]),
    ("redirect_uris", ["https://board.example/cb#x"]),
    ("redirect_uris", []),
])
def test_bad_app_registrations_change_nothing(auth_client, field, value):
    body = {"name": "Bad", "redirect_uris": [REDIRECT], field: value}
    response = auth_client.post("/api/v1/apps/", body, format="json")
    assert response.status_code == 400, response.content
    assert not App.objects.exists()


def test_another_owners_app_is_not_found(auth_client, make_user):
    theirs = make_app(make_user())
    assert auth_client.get(f"/api/v1/apps/{theirs.pk}/").status_code == 404
    assert auth_client.patch(f"/api/v1/apps/{theirs.pk}/", {"name": "Mine"},
                             format="json").status_code == 404


def test_graphql_takes_a_bearer_token_and_refuses_a_revoked_one(auth_client, user):
    import json

    made = auth_client.post(TOKENS, {"name": "gql", "scopes": ["account:read"]},
                            format="json").json()

    def me(key):
        return Client().post("/graphql/", data=json.dumps({"query": "{ me { username } }"}),
                             content_type="application/json",
                             HTTP_AUTHORIZATION=f"Bearer {key}")

    answer = me(made["token"])
    assert answer.status_code == 200
    assert answer.json()["data"]["me"]["username"] == user.username
    auth_client.delete(f"{TOKENS}{made['id']}/")
    refused = me(made["token"])
    assert refused.status_code == 401
    assert "not_authenticated" in refused.content.decode()


def test_user_for_token_takes_raw_oauth_keys_as_the_sockets_do(auth_client, user):
    from games.graphql.auth import InvalidToken, credential_for_token, user_for_token

    made = auth_client.post(TOKENS, {"name": "socket", "scopes": ["match:play"]},
                            format="json").json()
    assert user_for_token(made["token"]) == user
    holder, credential = credential_for_token(made["token"])
    assert scopes_of(holder, credential) == frozenset({"match:play"})
    with pytest.raises(InvalidToken):
        user_for_token("Bearer " + made["token"])  # the raw key only, as documented
    with pytest.raises(InvalidToken):
        user_for_token("hqp_" + "x" * 43)


def test_a_personal_token_cannot_mint_a_wider_one_nor_register_apps(auth_client):
    key = auth_client.post(TOKENS, {"name": "narrow", "scopes": ["account:write"]},
                           format="json").json()["token"]
    bearer = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    wider = Client().post(TOKENS, {"name": "wide", "scopes": ["match:play"]},
                          content_type="application/json", **bearer)
    assert wider.status_code == 403 and wider.json()["error"]["code"] == "first_party_only"
    app = Client().post("/api/v1/apps/", {"name": "x", "redirect_uris": [REDIRECT]},
                        content_type="application/json", **bearer)
    assert app.status_code == 403
    assert PersonalToken.objects.count() == 1 and not App.objects.exists()
