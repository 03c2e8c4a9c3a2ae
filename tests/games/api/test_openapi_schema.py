"""The OpenAPI document a client generator reads: valid OpenAPI 3.1 (openapi-spec-validator),
clean component names, JSON bodies only, a summary and an operation id on every operation,
public operations without auth, every error response typed with the error shape, and the
games' move schemas (from the engines) as the move body and the legal moves."""

from __future__ import annotations

import pytest
from openapi_spec_validator import validate

from rules import available_games, get_engine
from tests.games.support import API

pytestmark = pytest.mark.django_db

METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def schema(django_db_blocker):
    from rest_framework.test import APIClient

    with django_db_blocker.unblock():
        response = APIClient().get(f"{API}/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def _operations(schema):
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield path, method, operation


def test_the_document_is_valid_openapi_3_1(schema):
    assert schema["openapi"].startswith("3.1")
    validate(schema)  # raises on any violation


def test_component_names_are_clean(schema):
    names = list(schema["components"]["schemas"])
    assert not [name for name in names if name.endswith("RequestRequest")]
    assert {"CreateMatchRequest", "SubmitMoveRequest", "TokenRequest", "Move"} <= set(names)


def test_every_operation_has_a_summary_and_an_id_and_json_bodies(schema):
    ids = set()
    for path, method, operation in _operations(schema):
        assert operation.get("summary"), (method, path)
        ids.add(operation["operationId"])
        body = operation.get("requestBody")
        if body:
            assert list(body["content"]) == ["application/json"], (method, path)
    assert {"submit_move", "get_legal_moves", "list_matches", "get_game"} <= ids


def test_errors_are_typed_with_the_error_shape(schema):
    for path, method, operation in _operations(schema):
        for status, response in operation["responses"].items():
            if status.startswith(("4", "5")) and path != "/api/v1/health":
                ref = response["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (method, path, status)
    error = schema["components"]["schemas"]["ErrorBody"]
    assert set(error["properties"]) == {"code", "message", "details"}


def test_public_operations_carry_no_lock_and_reads_optional_auth(schema):
    by_id = {operation["operationId"]: operation for _, _, operation in _operations(schema)}
    for public in ("list_games", "get_game", "health", "register", "get_token"):
        assert by_id[public]["security"] == [], public
    for read in ("get_match", "list_matches", "get_events", "list_moves"):
        assert {} in by_id[read]["security"], read  # a token is optional
    assert {} not in by_id["submit_move"]["security"]


def test_the_move_schemas_come_from_the_engines(schema):
    components = schema["components"]["schemas"]
    games = [ref["$ref"].rsplit("/", 1)[1] for ref in components["Move"]["oneOf"]]
    assert games == [game.title() + "Move" for game in available_games()]
    for game in available_games():
        engine_schema = get_engine(game).move_schema()
        game_component = components[game.title() + "Move"]
        mapping = game_component["discriminator"]["mapping"]
        types = [branch["properties"]["type"]["enum"][0] for branch in engine_schema["oneOf"]]
        assert list(mapping) == types
        for branch, move_type in zip(engine_schema["oneOf"], types, strict=True):
            component = components[mapping[move_type].rsplit("/", 1)[1]]
            assert component["properties"] == branch["properties"]
    submit = components["SubmitMoveRequest"]["properties"]["move"]
    assert {"$ref": "#/components/schemas/Move"} in submit.get("oneOf", [submit])
    legal = components["LegalMoves"]["properties"]["moves"]["items"]
    assert legal == {"$ref": "#/components/schemas/Move"}


def test_a_form_body_is_refused(make_user, make_auth_client):
    client = make_auth_client(make_user())
    response = client.post(f"{API}/matches/", {"game": "han", "players": 2})  # multipart
    assert response.status_code == 415
    assert response.json()["error"]["code"] == "unsupported_media_type"


# -- what the endpoints answer, as schemathesis checks it (issue 21) --------------------------
def _response_schema(schema, path, method, status):
    return schema["paths"][f"{API}{path}"][method]["responses"][status]["content"][
        "application/json"]["schema"]


@pytest.mark.parametrize("path, method, status, item", [
    ("/invitations/", "get", "200", "Invitation"),
    ("/matches/{match_id}/invitations/", "post", "201", "Invitation"),
    ("/quick-match/", "get", "200", "QuickMatchRequestRow"),
])
def test_the_lists_are_declared_as_the_pages_they_answer(schema, path, method, status, item):
    """Every list is the one envelope (issue 22): count, next, previous, results."""
    assert _response_schema(schema, path, method, status) == {
        "$ref": f"#/components/schemas/{item}Page"}
    page = schema["components"]["schemas"][f"{item}Page"]
    assert page["properties"]["results"] == {
        "type": "array", "items": {"$ref": f"#/components/schemas/{item}"}}
    assert set(page["required"]) == {"count", "next", "previous", "results"}


def test_no_value_is_declared_so_that_null_matches_twice(schema):
    """drf-spectacular writes a nullable JSON value as oneOf [{}, null], which null
    matches twice: a match's view before it starts broke its own schema."""
    found, pending = [], [schema]
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            if {"type": "null"} in (node.get("oneOf") or []) and {} in node["oneOf"]:
                found.append(node)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    assert found == []
    # the view is typed now (issue 22): the game's view or null, which null matches once
    assert schema["components"]["schemas"]["MatchDetail"]["properties"]["view"]["oneOf"] == [
        {"$ref": "#/components/schemas/View"}, {"type": "null"}]
