"""infra/prepared.py: the hot fixed statements are prepared once per session, the ORM's
own statements are not, and Django's query log still sees every statement's text."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.matches import services as match_services
from games.matches.rows import load_match
from infra.prepared import prepared_cursor

pytestmark = pytest.mark.django_db


def _prepared_statements() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        return [row[0] for row in cursor.fetchall()]


def test_a_hot_statement_is_prepared_once_and_reused():
    User = get_user_model()
    creator = User.objects.create_user("prepared-creator", password=None)
    match = match_services.create_match(user=creator, game="han", players=2)
    for _ in range(3):
        assert load_match(match.pk).pk == match.pk
    read_statements = [text for text in _prepared_statements() if '"state"' in text]
    assert len(read_statements) == 1, read_statements  # one statement, prepared once
    assert "$1" in read_statements[0]  # bound on the server, not spelled out


def test_the_orms_own_statements_are_not_prepared():
    before = set(_prepared_statements())
    get_user_model().objects.filter(username="nobody-here").exists()
    assert set(_prepared_statements()) == before


def test_the_query_log_sees_a_prepared_statements_text():
    with CaptureQueriesContext(connection) as context:
        for value in (1, 2):  # the second run uses the prepared statement
            with prepared_cursor() as cursor:
                cursor.execute("SELECT %s::int + 40", [value])
                assert cursor.fetchone() == (value + 40,)
    assert [query["sql"] for query in context.captured_queries] == [
        "SELECT %s::int + 40", "SELECT %s::int + 40"]
