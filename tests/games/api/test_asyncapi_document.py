"""The play socket's AsyncAPI 3 document (docs/asyncapi.yaml): valid for the AsyncAPI
initiative's own parser (@asyncapi/parser, run by node from tools/asyncapi/, which
`make test` installs), every example a valid message, the same ops, error codes and close
codes as docs/play.md, the game data left to the OpenAPI document's move components;
served beside the OpenAPI schema (test_asyncapi_served.py).

Every frame a real server sends is checked against the document in
tests/games/play/test_asyncapi_frames.py."""

from __future__ import annotations

import os
import re

import pytest
import yaml

from tests import asyncapi
from tests.games.support import API

PLAY_MD = asyncapi.ROOT / "docs" / "play.md"


def play_md_section(title: str) -> str:
    text = PLAY_MD.read_text()
    start = text.index(title)
    following = re.search(r"^#{2,3} ", text[start + len(title):], re.M)
    return text[start: start + len(title) + (following.start() if following else len(text))]


def first_column_codes(section: str) -> list[str]:
    """The backquoted or numeric first cell of each row of the section's tables."""
    cells = re.findall(r"^\| *`?([a-z_0-9 /`]+?)`? *\|", section, re.M)
    return [cell for cell in cells if cell not in ("op", "code")]


# -- the document ------------------------------------------------------------------------------

def test_the_parser_finds_a_valid_asyncapi_3_document():
    if not asyncapi.parser_available():
        if os.environ.get("CI"):
            pytest.fail("node or tools/asyncapi/node_modules is missing: `make test` installs it")
        pytest.skip("node or tools/asyncapi/node_modules missing (make test installs it)")
    report = asyncapi.run_parser()
    assert report["valid"] and report["exit"] == 0, report["errors"]
    assert report["version"] == "3.0.0"
    # 3.0.0 is asked for; the parser's only remark may be that 3.1.0 exists
    assert {warning["code"] for warning in report["warnings"]} <= {"asyncapi-latest-version"}, \
        report["warnings"]


def test_the_parser_refuses_a_broken_document(tmp_path):
    """The wrapper reports what the parser finds (a dangling reference, a wrong action)."""
    if not asyncapi.parser_available():
        pytest.skip("node or tools/asyncapi/node_modules missing (make test installs it)")
    broken = asyncapi.DOCUMENT.read_text().replace("action: send", "action: publish", 1)
    broken = broken.replace("'#/components/schemas/Ply'", "'#/components/schemas/Plies'", 1)
    path = tmp_path / "broken.yaml"
    path.write_text(broken)
    report = asyncapi.run_parser(path)
    assert not report["valid"] and report["exit"] == 1
    messages = " ".join(error["message"] for error in report["errors"])
    assert "send" in messages or "Plies" in messages


def test_every_reference_is_inside_the_document():
    refs = re.findall(r"\$ref: '([^']+)'", asyncapi.DOCUMENT.read_text())
    assert refs and all(ref.startswith("#/") for ref in refs)
    for ref in refs:
        asyncapi.resolve(asyncapi.document(), ref)


def test_one_channel_one_ws_server_and_the_token_in_hello():
    doc = asyncapi.document()
    assert doc["asyncapi"] == "3.0.0"
    assert list(doc["channels"]) == ["play"]
    assert doc["channels"]["play"]["address"] == "/play/"
    assert {server["protocol"] for server in doc["servers"].values()} == {"ws", "wss"}
    scheme = doc["components"]["securitySchemes"]["helloToken"]
    assert "hello" in scheme["description"] and "token" in scheme["description"]
    secured = {name for name, operation in doc["operations"].items()
               if operation.get("security")}
    assert {"receiveHello", "receiveMove", "receiveFeed"} <= secured


def _operation_of(doc: dict, op: str) -> dict | None:
    """The client operation that receives the message ``op`` (found by the op its
    message's payload names: the client's ``chat`` is the channel's ``chatSend``, its
    ``chat`` being the server's push)."""
    for operation in doc["operations"].values():
        if operation["action"] != "receive":
            continue
        for message in operation["messages"]:
            name = asyncapi.resolve(doc, message["$ref"])["$ref"].rsplit("/", 1)[1]
            if asyncapi.op_of(doc["components"]["messages"][name]) == op:
                return operation
    return None


def test_each_op_declares_the_scope_the_socket_checks():
    """The socket's auth is hello's token (a first-party key, an OAuth access token or a
    personal token); each op's ``x-scopes`` is what games/play/scopes.py checks, and the
    token's description points at the OAuth endpoints."""
    from games.api.openapi_scopes import AUTHORIZE_URL, TOKEN_URL
    from games.play.scopes import OP_SCOPES

    doc = asyncapi.document()
    token = doc["components"]["securitySchemes"]["helloToken"]["description"]
    assert "first-party key" in token and "hqa_" in token and "hqp_" in token
    assert f"`{AUTHORIZE_URL}`" in token and f"`{TOKEN_URL}`" in token
    assert "insufficient_scope" in token
    for op, scope in OP_SCOPES.items():
        operation = _operation_of(doc, op)
        assert operation is not None, op
        assert operation["x-scopes"] == ([scope] if scope else []), op
        if scope:
            assert f"`{scope}`" in operation["description"], op
            assert operation["security"] == [
                {"$ref": "#/components/securitySchemes/helloToken"}], op


def test_the_ops_are_those_of_docs_play_md():
    directions = asyncapi.messages_by_direction()
    client = first_column_codes(play_md_section("### From the client"))
    server = first_column_codes(play_md_section("### From the server"))
    server = [op.strip() for cell in server for op in cell.replace("`", "").split("/")]
    assert set(directions["client"]) == set(client)
    assert set(directions["server"]) == set(server)


def test_the_error_codes_and_close_codes_are_those_of_docs_play_md():
    doc = asyncapi.document()
    codes = first_column_codes(play_md_section("### Errors and refusals"))
    described = doc["components"]["messages"]["error"]["description"]
    for code in codes:
        assert f"`{code}`" in described, code
    closes = {int(code) for code in first_column_codes(play_md_section("### Close codes"))}
    documented = {entry["code"] for entry in doc["channels"]["play"]["x-close-codes"]}
    # and 1012, which uvicorn sends on shutdown where docs/play.md names 1001
    assert documented == closes | {1012}
    for code in documented:
        assert str(code) in doc["info"]["description"]
        assert str(code) in doc["channels"]["play"]["description"]


def test_the_error_object_is_rests():
    error = asyncapi.document()["components"]["schemas"]["Error"]
    assert set(error["required"]) == set(error["properties"]) == {"code", "message", "details"}
    for name in ("error", "refused"):
        payload = asyncapi.document()["components"]["messages"][name]["payload"]
        assert payload["properties"]["error"] == {"$ref": "#/components/schemas/Error"}


@pytest.mark.django_db
def test_the_moves_point_at_the_openapi_components_instead_of_copying_them(client):
    schemas = asyncapi.document()["components"]["schemas"]
    openapi = client.get(f"{API}/schema/?format=json").json()["components"]["schemas"]
    for name in ("Move", "HanMove", "HansaMove"):
        assert name in openapi
        assert f"`{name}`" in schemas["Move"]["description"]
    assert schemas["Move"]["x-openapi-component"] == "#/components/schemas/Move"
    named = set(re.findall(r"`((?:Han|Hansa)\w*Move)`", asyncapi.DOCUMENT.read_text()))
    assert {"HanPlaceMove", "HansaKeepMove"} <= named and named <= set(openapi)
    # no move type is spelled out here: they stay in one place
    text = asyncapi.DOCUMENT.read_text()
    assert "HanPlaceMove" in text  # named once, as an example of a component
    assert "oneOf:\n" not in yaml.safe_dump(schemas["Move"])


def test_every_example_is_a_valid_message():
    doc = asyncapi.document()
    checked = 0
    for name, message in doc["components"]["messages"].items():
        assert message.get("examples"), f"{name} has no example"
        for example in message["examples"]:
            for closed in (False, True):
                validator = asyncapi.payload_validator(name, closed=closed)
                errors = [error.message for error in validator.iter_errors(example["payload"])]
                assert not errors, (name, example, errors)
            checked += 1
    assert checked >= 17


@pytest.mark.parametrize("frame, direction, wrong", [
    ({"op": "ack", "match": "42"}, "server", "'ply' is a required property"),
    ({"op": "ack", "match": "42", "ply": 3, "extra": 1}, "server", "'extra' was unexpected"),
    ({"op": "welcome", "user": None, "heartbeat_seconds": 25, "max_message_bytes": 10,
      "max_subscriptions": 50, "ref": "x" * 65}, "server", "is not valid under any"),
    ({"op": "refused", "match": "1", "status": 409, "error": {"code": "stale_ply"}},
     "server", "'message' is a required property"),
    ({"op": "jump"}, "client", "no client message with op 'jump'"),
    ({"op": "hello", "token": 5}, "client", "is not of type"),
    ({"op": "hello", "token": None, "password": "x"}, "client", "'password' was unexpected"),
    ({"op": "move", "match": "x1", "move": {"type": "draw"}}, "client", "is not valid"),
])
def test_the_validators_catch_a_wrong_frame(frame, direction, wrong):
    errors = asyncapi.frame_errors(frame, direction)
    assert any(wrong in error for error in errors), errors


def test_a_game_move_or_view_stays_open_when_closed():
    update = {"op": "update", "match": "1", "since": 0, "ply": 1, "status": "active",
              "to_act": [1], "seat": 0, "view": {"anything": [1, 2]}, "legal_moves": None,
              "seats": [{"position": 0, "kind": "human", "username": "a", "user": "a",
                         "bot_kind": None,
                         "taken_over_from": None},
                        {"position": 1, "kind": "bot", "username": None, "user": None,
                         "bot_kind": "greedy",
                         "taken_over_from": None}],
              "moves": [{"ply": 0, "seat": 0, "move": {"type": "place", "space": "x"},
                         "events": [{"type": "placed", "seat": 0, "space": "x"}],
                         "created_at": "2026-11-01T12:00:00+00:00"}],
              "clocks": [], "incidents": []}
    assert asyncapi.frame_errors(update) == []
