"""The database backend writes JSON with orjson (infra/postgresql/base.py): PostgreSQL
stores exactly what ``json.dumps`` would have given it, for every kind of value the
service writes, and a value orjson refuses still goes through ``json.dumps``."""

from __future__ import annotations

import json

import pytest
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection

from games.matches.models import Match
from infra.postgresql import base

pytestmark = pytest.mark.django_db

VALUES = [
    {"board": [[None, 1], [2, "Bärbel"]], "to_act": (0, 1), "score": {"0": 12, "1": 9}},
    {1: "int keys", 2: [True, False, None]},  # seat numbers as keys: written as "1", "2"
    {"huge": 2 ** 70, "small": -3},  # beyond orjson's 64 bits: json.dumps writes it
    {"float": 0.1, "escapes": "quote \" backslash \\ newline \n tab \t", "emoji": "🀄"},
    [],
    "just text",
]


def _stored(adapted):
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::jsonb::text", [adapted])
        return json.loads(cursor.fetchone()[0])


@pytest.mark.parametrize("value", VALUES)
def test_postgresql_stores_what_json_dumps_would_have_written(value):
    adapted = connection.ops.adapt_json_value(value, None)
    assert adapted.dumps is base.dumps
    assert _stored(adapted) == json.loads(json.dumps(value))


def test_a_field_with_its_own_encoder_keeps_djangos_path():
    adapted = connection.ops.adapt_json_value({"a": 1}, DjangoJSONEncoder)
    assert adapted.dumps is not base.dumps
    assert _stored(adapted) == {"a": 1}


def test_a_model_round_trip_reads_back_the_same_value(make_user):
    from games.matches import services

    match = services.create_match(user=make_user(), game="han", players=2)
    state = {"nested": {"é": [1, 2.5, None]}, 3: "three"}
    Match.objects.filter(pk=match.pk).update(state=state)
    assert Match.objects.get(pk=match.pk).state == {"nested": {"é": [1, 2.5, None]},
                                                    "3": "three"}
