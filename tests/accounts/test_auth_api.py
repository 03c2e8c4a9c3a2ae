"""Registration, token issue/revoke and /me, including every bad-input path (400 with a
stable code, nothing written)."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from tests.conftest import DEFAULT_PASSWORD

pytestmark = pytest.mark.django_db

REGISTER = "/api/v1/auth/register/"
TOKEN = "/api/v1/auth/token/"
ME = "/api/v1/me"


def error_code(response) -> str:
    return response.json()["error"]["code"]


def field_codes(response, field: str) -> list[str]:
    return [item["code"] for item in response.json()["error"]["details"][field]]


# ---------------------------------------------------------------- registration


def test_register_creates_user_with_hashed_password_and_returns_working_token(api_client):
    response = api_client.post(
        REGISTER,
        {"username": "alice", "password": DEFAULT_PASSWORD, "email": "alice@example.org"},
        format="json",
    )

    assert response.status_code == 201, response.content
    body = response.json()
    assert body["user"]["username"] == "alice"
    assert body["user"]["email"] == "alice@example.org"
    assert "password" not in body["user"]
    user = User.objects.get(username="alice")
    assert user.check_password(DEFAULT_PASSWORD)
    assert user.password != DEFAULT_PASSWORD
    assert Token.objects.get(user=user).key == body["token"]

    api_client.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert api_client.get(ME).json()["username"] == "alice"


def test_register_without_email_is_allowed(api_client):
    response = api_client.post(
        REGISTER, {"username": "bob", "password": DEFAULT_PASSWORD}, format="json"
    )
    assert response.status_code == 201
    assert User.objects.get(username="bob").email == ""


@pytest.mark.parametrize(
    ("payload", "missing"),
    [
        ({"password": DEFAULT_PASSWORD}, "username"),
        ({"username": "carol"}, "password"),
        ({}, "username"),
    ],
)
def test_register_missing_field_is_invalid_input(api_client, payload, missing):
    response = api_client.post(REGISTER, payload, format="json")

    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert field_codes(response, missing) == ["required"]
    assert not User.objects.exists()


@pytest.mark.parametrize(
    ("password", "validator_code"),
    [
        ("short1!", "password_too_short"),
        ("password123", "password_too_common"),
        ("84629173529", "password_entirely_numeric"),
        ("daveyjones-1", "password_too_similar"),
    ],
)
def test_register_weak_password_is_rejected_by_django_validators(
    api_client, password, validator_code
):
    response = api_client.post(
        REGISTER, {"username": "daveyjones", "password": password}, format="json"
    )

    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert validator_code in field_codes(response, "password")
    assert not User.objects.filter(username="daveyjones").exists()


def test_register_duplicate_username_is_rejected(api_client, make_user):
    make_user(username="erin")

    response = api_client.post(
        REGISTER, {"username": "erin", "password": DEFAULT_PASSWORD}, format="json"
    )

    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert field_codes(response, "username") == ["unique"]
    assert User.objects.filter(username="erin").count() == 1


def test_register_invalid_email_is_rejected(api_client):
    response = api_client.post(
        REGISTER,
        {"username": "frank", "password": DEFAULT_PASSWORD, "email": "not-an-email"},
        format="json",
    )
    assert response.status_code == 400
    assert field_codes(response, "email") == ["invalid"]


@pytest.mark.parametrize("url", [REGISTER, TOKEN])
def test_malformed_json_is_a_400_with_stable_code(api_client, url):
    response = api_client.generic(
        "POST", url, '{"username": "gina", "password": ', content_type="application/json"
    )

    assert response.status_code == 400
    assert error_code(response) == "malformed_json"
    assert not User.objects.exists()


def test_json_body_that_is_not_an_object_is_invalid_input(api_client):
    response = api_client.generic("POST", REGISTER, "[1, 2]", content_type="application/json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"


# ---------------------------------------------------------------- tokens


def test_token_issue_with_right_credentials_returns_the_users_token(api_client, user):
    response = api_client.post(
        TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json"
    )

    assert response.status_code == 200
    key = response.json()["token"]
    assert Token.objects.get(user=user).key == key
    assert response.json()["user"]["id"] == user.id

    again = api_client.post(
        TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json"
    )
    assert again.json()["token"] == key  # one token per user until revoked


@pytest.mark.parametrize(
    "credentials",
    [
        {"username": "player-who-is-not-there", "password": DEFAULT_PASSWORD},
        {"username": "USE_FIXTURE_USER", "password": "wrong-password-entirely"},
    ],
)
def test_token_issue_with_wrong_credentials_is_400_invalid_credentials(
    api_client, user, credentials
):
    if credentials["username"] == "USE_FIXTURE_USER":
        credentials = {**credentials, "username": user.username}

    response = api_client.post(TOKEN, credentials, format="json")

    assert response.status_code == 400
    assert error_code(response) == "invalid_credentials"
    assert not Token.objects.exists()


def test_token_issue_for_inactive_user_is_refused(api_client, make_user):
    inactive = make_user(is_active=False)
    response = api_client.post(
        TOKEN, {"username": inactive.username, "password": DEFAULT_PASSWORD}, format="json"
    )
    assert response.status_code == 400
    assert error_code(response) == "invalid_credentials"


def test_token_issue_missing_password_is_invalid_input(api_client, user):
    response = api_client.post(TOKEN, {"username": user.username}, format="json")
    assert response.status_code == 400
    assert error_code(response) == "invalid_input"
    assert field_codes(response, "password") == ["required"]


def test_token_revoke_deletes_the_calling_token_and_it_stops_working(auth_client, token):
    assert auth_client.get(ME).status_code == 200

    response = auth_client.delete(TOKEN)

    assert response.status_code == 204
    assert not Token.objects.filter(key=token.key).exists()
    after = auth_client.get(ME)
    assert after.status_code == 401
    assert error_code(after) == "not_authenticated"
    assert after.json()["error"]["details"]["reason"] == "authentication_failed"


def test_token_revoke_without_token_is_401(api_client):
    response = api_client.delete(TOKEN)
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"


def test_new_token_can_be_issued_after_revoke(api_client, auth_client, user, token):
    auth_client.delete(TOKEN)
    response = api_client.post(
        TOKEN, {"username": user.username, "password": DEFAULT_PASSWORD}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["token"] != token.key


# ---------------------------------------------------------------- /me


def test_me_returns_the_authenticated_user(auth_client, user):
    response = auth_client.get(ME)
    assert response.status_code == 200
    assert response.json()["id"] == user.id
    assert response.json()["username"] == user.username
    assert "password" not in response.json()


def test_me_without_auth_is_401_not_authenticated(api_client):
    response = api_client.get(ME)
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"
    assert response.json()["error"]["message"]


def test_me_with_garbage_token_is_401(api_client):
    api_client.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    response = api_client.get(ME)
    assert response.status_code == 401
    assert error_code(response) == "not_authenticated"


def test_me_accepts_session_login_for_the_browsable_api(user):
    client = APIClient()
    assert client.login(username=user.username, password=DEFAULT_PASSWORD)
    assert client.get(ME).json()["username"] == user.username


def test_me_wrong_method_is_405_in_the_error_shape(auth_client):
    response = auth_client.post(ME, {}, format="json")
    assert response.status_code == 405
    assert error_code(response) == "method_not_allowed"
