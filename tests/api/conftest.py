"""Fixtures of the match tests (tests/games and tests/api).

Celery in tests: tasks go to Redis db 5, queue "test_games", which only the worker that
tests/games/test_celery_worker.py starts consumes. A development worker (queue "games",
db 0) must never receive a test's task: its database is not the test database.
"""

import pytest

from tests.games.support import isolate_test_celery

isolate_test_celery()


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Users are made in most tests; PBKDF2 would dominate the run time.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
