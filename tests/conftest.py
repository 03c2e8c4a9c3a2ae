"""Fixtures shared by every test package.

    api_client      an unauthenticated DRF APIClient
    make_user       factory: make_user(username=None, password=DEFAULT_PASSWORD, **fields)
    user            one ordinary user
    auth_client     an APIClient sending `Authorization: Token <key>` for `user`
    token           that user's DRF Token
    make_auth_client  factory: make_auth_client(user) -> APIClient with that user's token

Celery in tests: every test sends its tasks to Redis db 5, queues "test_games" and
"test_bots", which only the worker that tests/games/matches/test_celery_worker.py starts consumes.
A development worker (queues "games" and "bots", db 0) must never receive a test's task:
its database is not the test one.
"""

from __future__ import annotations

import itertools

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.games.support import isolate_test_celery

isolate_test_celery()

DEFAULT_PASSWORD = "correct-horse-battery-staple"

_usernames = itertools.count(1)


@pytest.fixture(autouse=True)
def fresh_counters():
    """Rate-limit and failed-login counts (infra/counters.py) start from zero in every
    test: they live in Redis beyond a run, and usernames repeat from run to run."""
    from django.core.cache import cache
    from django_redis.exceptions import ConnectionInterrupted

    from infra import counters

    try:
        cache.clear()  # the test settings' own Redis database
    except ConnectionInterrupted:
        pass  # a test that needs no Redis runs without it
    counters.forget_outage()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Users are made in most tests; PBKDF2 would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


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
