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
ERROR = "#/components/schemas/Error"


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


#: every operation's id, as docs/api.md promises them stable ("Generating a client"): a
#: generated client names its functions after them, so a change here breaks clients
OPERATION_IDS = [
    "abort_match", "accept_invitation", "cancel_quick_match", "create_match",
    "create_personal_token", "create_private_match", "create_webhook",
    "decline_invitation", "delete_chat_message", "delete_webhook", "disconnect_app",
    "erase_me", "export_me", "export_user_records", "get_analysis", "get_board_png",
    "get_board_svg", "get_events", "get_game", "get_leaderboard", "get_legal_moves",
    "get_match", "get_match_lobby", "get_match_record", "get_me", "get_my_app",
    "get_profile", "get_replay", "get_result", "get_token", "get_webhook", "health",
    "invite_players", "join_by_invite_code", "join_match", "leave_match",
    "list_chat_messages", "list_chat_mutes", "list_connected_apps", "list_games",
    "list_matches", "list_moves", "list_my_apps", "list_my_invitations",
    "list_my_quick_matches", "list_personal_tokens", "list_rating_changes",
    "list_record_signing_keys", "list_webhook_deliveries", "list_webhooks",
    "mute_in_chat", "propose_rematch", "reclaim_seat", "register", "register_app",
    "report_chat_message", "request_analysis", "request_quick_match", "resign_seat",
    "revoke_personal_token",
    "revoke_token", "send_chat_message", "send_webhook_again", "start_match",
    "stream_feed", "submit_move", "unmute_in_chat", "update_my_app", "update_webhook",
    "verify_record",
]
#: the notifications' (issue 42), kept apart so other capabilities' additions merge cleanly
OPERATION_IDS = sorted([*OPERATION_IDS, "get_notification_preferences",
                        "update_notification_preferences", "get_push_key",
                        "list_push_subscriptions", "create_push_subscription",
                        "delete_push_subscription", "list_waiting_games"])
#: the players' e-mail (issue 42, games/api/mail/), apart for the same reason
OPERATION_IDS = sorted([*OPERATION_IDS, "get_mail_settings", "set_mail_address",
                        "update_mail_settings", "remove_mail_address",
                        "resend_mail_confirmation", "send_test_mail"])
#: what drf-spectacular appends to the ids it makes up from a path
GENERATED_SUFFIXES = ("_retrieve", "_create", "_destroy", "_list", "_update", "_partial_update")


def test_operation_ids_are_the_stable_declared_ones(schema):
    ids = sorted(operation["operationId"] for _, _, operation in _operations(schema))
    assert ids == OPERATION_IDS
    assert not [name for name in ids if name.endswith(GENERATED_SUFFIXES)]


def test_every_operation_documents_rate_limits_outages_and_bodies(schema):
    """429 and 503 wherever a request may meet them (all but the unthrottled health check
    answer 429), 415 wherever there is a body: a generated client types each (issue 41)."""
    for path, method, operation in _operations(schema):
        responses = operation["responses"]
        assert "503" in responses, (method, path)
        assert ("429" in responses) == (path != f"{API}/health"), (method, path)
        if "requestBody" in operation:
            assert "415" in responses, (method, path)
    for status in ("429", "503"):
        answer = schema["paths"][f"{API}/matches/{{match_id}}/moves/"]["post"]["responses"][status]
        assert answer["content"]["application/json"]["schema"] == {"$ref": ERROR}
        assert "Retry-After" in answer["headers"]


def test_each_request_body_describes_its_own_operation(schema):
    """A body's description is its own, not its base class's (issue 41: three bodies said
    how unknown keys are refused, a private match's said "A new match")."""
    components = schema["components"]["schemas"]
    seen = {}
    for _path, _method, operation in _operations(schema):
        body = operation.get("requestBody")
        ref = body and body["content"]["application/json"]["schema"].get("$ref")
        if ref:
            name = ref.rsplit("/", 1)[1]
            # a PATCH body is its POST body made partial: one serializer, one description
            seen.setdefault(components[name].get("description"), set()).add(
                name.removeprefix("Patched"))
    shared = {text: names for text, names in seen.items() if text and len(names) > 1}
    assert shared == {}
    assert "private" in components["CreatePrivateMatchRequest"]["description"]
    assert not [text for text in seen if text and "misspelt" in text]


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
    assert submit.get("allOf", [submit]) == [{"$ref": "#/components/schemas/Move"}]
    assert "move" in components["SubmitMoveRequest"]["required"]
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
            # (a property may be named "oneOf": the catalogue's move schema has one)
            branches = node.get("oneOf")
            if isinstance(branches, list) and {"type": "null"} in branches and {} in branches:
                found.append(node)
            pending.extend(node.values())
        elif isinstance(node, list):
            pending.extend(node)
    assert found == []
    # the view is typed now (issue 22): the game's view or null, which null matches once
    assert schema["components"]["schemas"]["MatchDetail"]["properties"]["view"]["oneOf"] == [
        {"$ref": "#/components/schemas/View"}, {"type": "null"}]
