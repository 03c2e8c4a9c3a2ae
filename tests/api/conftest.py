"""Fixtures of the match tests (tests/games and tests/api share them via support.py)."""

import pytest


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Users are made in most tests; PBKDF2 would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
