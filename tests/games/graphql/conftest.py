"""Fixtures of the GraphQL tests: three players with API tokens."""

from __future__ import annotations

import pytest

from tests.games.graphql.support import make_player


@pytest.fixture
def players(make_user):
    return [make_player(make_user) for _ in range(3)]


@pytest.fixture
def outsider(make_user):
    """Signed in, but holding no seat."""
    return make_player(make_user)


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Hashing with the production hasher costs ~1 s per user on a busy 2-core machine;
    # nothing here tests hashing.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
