"""A PostgreSQL session of the test database's own, beside Django's: what tests use to hold
a lock, or to read what another session sees (committed data only)."""

from __future__ import annotations

import psycopg
from django.db import connection


def another_session(*, autocommit: bool = False, user: str | None = None,
                    password: str | None = None) -> psycopg.Connection:
    """A new connection to the test database, as Django's user unless ``user`` is given."""
    db = connection.settings_dict
    return psycopg.connect(host=db["HOST"], port=db["PORT"], dbname=db["NAME"],
                           user=user or db["USER"], password=password or db["PASSWORD"],
                           autocommit=autocommit)
