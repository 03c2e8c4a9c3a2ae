"""accounts/token_auth.py: DRF's token authentication in one fixed statement answers as DRF
does (issue 14), and nothing is cached: a revoked token stops at once."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from accounts.token_auth import NarrowTokenAuthentication

pytestmark = pytest.mark.django_db


@pytest.fixture
def user_and_token():
    user = get_user_model().objects.create_user("narrow", password=None,
                                                email="narrow@example.com")
    return user, Token.objects.create(user=user)


def test_a_token_gives_its_user_and_itself_in_one_statement(user_and_token):
    user, token = user_and_token
    with CaptureQueriesContext(connection) as context:
        found_user, found_token = NarrowTokenAuthentication().authenticate_credentials(token.key)
        assert (found_user.pk, found_user.username) == (user.pk, "narrow")
        assert found_user.is_authenticated and found_user.is_active
        assert not found_user.is_staff and not found_user.is_superuser
    assert len(context.captured_queries) == 1
    assert found_token.key == token.key and found_token.user_id == user.pk
    assert found_token.created == token.created
    assert found_user.email == "narrow@example.com"  # other columns load on access


def test_a_play_socket_hello_reads_its_user_and_password_hash_in_one_statement(user_and_token):
    from games.play import operations

    user, token = user_and_token
    with CaptureQueriesContext(connection) as context:
        found_user, password_at_hello, _credential = operations.authenticate_credential(
            token.key, "addr:127.0.0.1")
    assert len(context.captured_queries) == 1
    assert found_user.pk == user.pk and password_at_hello == user.password


def test_unknown_key_and_inactive_user_are_refused_like_drf(user_and_token):
    user, token = user_and_token
    with pytest.raises(AuthenticationFailed, match="Invalid token"):
        NarrowTokenAuthentication().authenticate_credentials("0" * 40)
    user.is_active = False
    user.save(update_fields=["is_active"])
    with pytest.raises(AuthenticationFailed, match="inactive"):
        NarrowTokenAuthentication().authenticate_credentials(token.key)


def test_a_revoked_token_stops_working_at_once(user_and_token):
    _user, token = user_and_token
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get("/api/v1/me").status_code == 200
    assert client.delete("/api/v1/auth/token").status_code in (200, 204)
    response = client.get("/api/v1/me")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
