"""Nothing in the OpenAPI document is left untyped where the service knows the shape
(issue 41): no property without a type, no object without fields whose values may be
anything, except the documented free-form parts (marked ``x-free-form``, games/api/
openapi.py: an engine's own state JSON). Counted in the document itself and in the
TypeScript types generated from it (clients/ts/src/generated/schema.d.ts, kept equal to
the served document by tests/clients/test_ts_types.py); the Python client generated from
it is counted in tests/games/api/test_generated_client_types.py."""

from __future__ import annotations

import re

import pytest

from tests.clients.node import CLIENT
from tests.games.api.schema_looseness import FREE_FORM, loose_parts, open_objects

pytestmark = pytest.mark.django_db

SCHEMA_TS = CLIENT / "src" / "generated" / "schema.d.ts"


@pytest.fixture(scope="module")
def document(django_db_blocker):
    from django.test import Client

    with django_db_blocker.unblock():
        response = Client().get("/api/v1/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def test_the_document_has_no_untyped_part_outside_the_free_form_ones(document):
    untyped, empty, free = loose_parts(document)
    assert (untyped, empty) == ([], [])
    # the free-form parts are the documented ones, each saying so
    assert free == ["Game.move_schema", "Game.options", "Replay.state"]
    schemas = document["components"]["schemas"]
    state = schemas["Replay"]["properties"]["state"]
    published = schemas["Game"]["properties"]["move_schema"]
    for part in (state, published):
        assert part[FREE_FORM] is True and "free-form" in part["description"]


def test_the_typescript_types_have_no_unknown_outside_the_free_form_parts(document):
    """Each free-form object is one ``[key: string]: unknown`` in the TypeScript types, as
    is each open object's room for more keys (its properties typed);
    ``unknown`` anywhere else (header maps aside: ``[name: string]: unknown``) is a field
    the generator could not type. ``Record<string, never>`` is an object that must be
    empty: only openapi-typescript's own empty ``webhooks`` and ``$defs`` and the games'
    option objects that take no option (Hansa)."""
    source = SCHEMA_TS.read_text(encoding="utf-8")
    unknown = [line.strip() for line in source.splitlines()
               if re.search(r"\bunknown\b(?![_a-z])", line) and "@" not in line
               and not line.strip().startswith(("*", "/*", "[name: string]: unknown"))]
    _untyped, _empty, free = loose_parts(document)
    expected = len(free) + len(open_objects(document))
    assert unknown == ["[key: string]: unknown;"] * expected, unknown
    never = re.findall(r"^\s*(?:export type )?([\w$]+)\??: Record<string, never>|"
                       r"^export type ([\w$]+) = Record<string, never>", source, re.M)
    names = sorted(first or second for first, second in never)
    schemas = document["components"]["schemas"]
    must_be_empty = sorted(name for name, schema in schemas.items()
                           if schema.get("additionalProperties") is False
                           and not schema.get("properties"))
    assert names == sorted(["$defs", "webhooks", *must_be_empty])
