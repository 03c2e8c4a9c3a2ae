"""Django's PostgreSQL backend (``ENGINE: infra.postgresql``: config/env.py), with one
change: a ``JSONField`` without an encoder of its own is written with orjson, not
``json.dumps``.

Why: a move writes several JSON values (the state snapshot of 1.5-2 KB, the move, the
clocks, the feed event), and Django hands each to psycopg with ``json.dumps``. Profiled
under the peer benchmark's 16 clients, that encoding was 2.3% of a web process's time;
orjson does the same work in a fraction of it.

What PostgreSQL stores is the same: ``jsonb`` keeps the parsed value, not the text, so
orjson's spacing and its unescaped non-ASCII characters change nothing. Keys that are not
strings are written as ``json.dumps`` writes them (``OPT_NON_STR_KEYS``: ``1`` as ``"1"``).
Where orjson refuses a value that ``json.dumps`` takes (an integer beyond 64 bits), the
value goes through ``json.dumps`` as before. One difference is left: orjson writes a float
NaN or infinity as ``null``, where ``json.dumps`` wrote ``NaN``, which PostgreSQL refuses;
no value the service stores is such a float.

Fields with an encoder of their own (``JSONField(encoder=...)``) keep Django's path.
"""

from __future__ import annotations

import json

import orjson
from django.db.backends.postgresql import base, operations
from psycopg.types.json import Jsonb

_OPTIONS = orjson.OPT_NON_STR_KEYS


def dumps(value) -> bytes | str:
    """``value`` as JSON for psycopg's ``Jsonb`` dumper (which takes bytes or text)."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError: json.dumps decides, as before
        return json.dumps(value)


class DatabaseOperations(operations.DatabaseOperations):
    def adapt_json_value(self, value, encoder):
        if encoder is None:
            return Jsonb(value, dumps=dumps)
        return super().adapt_json_value(value, encoder)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
