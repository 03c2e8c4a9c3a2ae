"""The two NDJSON answers fit their OpenAPI schemas line by line (issue 22, item 4):
schemathesis cannot check an application/x-ndjson body, and the feed stream never ends,
so this test does: every line of a user's feed (``GET /api/v1/stream/`` writes
``games.feed.selectors``' rows, one per line) is a ``FeedEvent``, and every record of the
records export a ``Record``, each validated against the served document."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from games.feed import selectors as feed_selectors
from games.lobby import services as lobby_services
from games.matches import services as match_services
from games.records import selectors as record_selectors
from tests.games.support import API, play_to_end

# scoring runs on commit (eager Celery): real transactions
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def document(api_client):
    return api_client.get(f"{API}/schema/?format=json").json()


def validator(document, component: str) -> Draft202012Validator:
    registry = Registry().with_resource(
        "urn:openapi", Resource.from_contents(document, default_specification=DRAFT202012))
    schema = {"$ref": f"urn:openapi#/components/schemas/{component}"}
    return Draft202012Validator(schema, registry=registry)


def _refs_to_urn(node):
    if isinstance(node, dict):
        return {key: ("urn:openapi" + value if key == "$ref" and value.startswith("#")
                      else _refs_to_urn(value)) for key, value in node.items()}
    if isinstance(node, list):
        return [_refs_to_urn(value) for value in node]
    return node


def test_every_kind_of_feed_line_is_a_feed_event(document, make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)  # started: your_turn
    play_to_end(match.pk, {0: ann, 1: bob})  # scored: finished
    private = match_services.create_match(user=ann, game="han", players=3)
    lobby_services.invite(user=ann, match_id=private.pk, usernames=[bob.username])
    lines = [json.loads(json.dumps(row)) for row in feed_selectors.events_after(bob, 0)]
    kinds = {line["kind"] for line in lines}
    assert {"match_started", "your_turn", "match_finished", "invitation_received"} <= kinds
    check = validator(_refs_to_urn(document), "FeedEvent")
    for line in lines:
        errors = [error.message for error in check.iter_errors(line)]
        assert not errors, (line, errors)


def test_every_exported_record_is_a_record(document, make_user):
    ann, bob = make_user(), make_user()
    for game in ("han", "hansa"):
        match = match_services.create_match(user=ann, game=game, players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        play_to_end(match.pk, {0: ann, 1: bob})
    # what the export writes, one per line (games/api/records/views.py)
    ids = record_selectors.user_record_ids(ann.username, viewer=ann)
    records = [json.loads(json.dumps(record, default=str))
               for record in record_selectors.records_of(ids)]
    assert len(records) == 2
    check = validator(_refs_to_urn(document), "Record")
    for record in records:
        errors = [f"{list(error.path)}: {error.message}" for error in check.iter_errors(record)]
        assert not errors, errors
