"""Fixtures shared by every test package.

    api_client      an unauthenticated DRF APIClient
    make_user       factory: make_user(username=None, password=DEFAULT_PASSWORD, **fields)
    user            one ordinary user
    auth_client     an APIClient sending `Authorization: Token <key>` for `user`
    token           that user's DRF Token
    make_auth_client  factory: make_auth_client(user) -> APIClient with that user's token
"""

from __future__ import annotations

import itertools

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

DEFAULT_PASSWORD = "correct-horse-battery-staple"

_usernames = itertools.count(1)


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db):
    from accounts.models import User

    def factory(username: str | None = None, password: str = DEFAULT_PASSWORD, **fields) -> User:
        username = username or f"player{next(_usernames)}"
        return User.objects.create_user(username=username, password=password, **fields)

    return factory


@pytest.fixture
def user(make_user):
    return make_user()


@pytest.fixture
def make_auth_client(db):
    def factory(some_user) -> APIClient:
        client = APIClient()
        key, _ = Token.objects.get_or_create(user=some_user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key.key}")
        return client

    return factory


@pytest.fixture
def token(user) -> Token:
    return Token.objects.get_or_create(user=user)[0]


@pytest.fixture
def auth_client(token) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client
