"""The play socket's AsyncAPI document (docs/asyncapi.yaml) for tests: its messages by
direction and ``op``, and jsonschema validators of their payloads.

Two ways to validate:

- ``as_written``: the document's schemas as a client reads them (objects open to fields
  added later, draft 7 as AsyncAPI's schema format is);
- ``closed`` (the default): every object that lists its properties refuses any other
  (``additionalProperties: false``), after ``allOf`` compositions are merged into one
  object, so a frame carrying a field the document does not name fails. The game data the
  document leaves to the games (a move, an event, a view, an error's details) says so with
  an explicit ``additionalProperties: true`` and stays open.
"""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from functools import cache
from pathlib import Path

import yaml
from jsonschema import Draft7Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parent.parent
DOCUMENT = ROOT / "docs" / "asyncapi.yaml"
TOOLS = ROOT / "tools" / "asyncapi"
BASE = "urn:play-asyncapi"


@cache
def document() -> dict:
    return yaml.safe_load(DOCUMENT.read_text(encoding="utf-8"))


def resolve(doc: dict, ref: str):
    assert ref.startswith("#/"), f"only local references: {ref}"
    node = doc
    for part in ref[2:].split("/"):
        node = node[part.replace("~1", "/").replace("~0", "~")]
    return node


def op_of(message: dict) -> str:
    """The ``op`` a message's payload pins (``const``), through an ``allOf``."""
    payload = message["payload"]
    for part in [payload, *payload.get("allOf", [])]:
        op = part.get("properties", {}).get("op", {}).get("const")
        if op:
            return op
    raise AssertionError(f"message {message.get('name')} pins no op")


def messages_by_direction(doc: dict | None = None) -> dict[str, dict[str, str]]:
    """``{"client": {op: component name}, "server": {op: component name}}`` from the
    operations: a client sends what the server ``receive``s; the server sends what it
    ``send``s and what its replies carry."""
    doc = doc or document()
    found: dict[str, dict[str, str]] = {"client": {}, "server": {}}

    def note(direction: str, refs: list[dict]) -> None:
        for ref in refs:
            channel_message = resolve(doc, ref["$ref"])
            name = channel_message["$ref"].rsplit("/", 1)[1]
            op = op_of(doc["components"]["messages"][name])
            assert found[direction].get(op, name) == name, (direction, op, name)
            found[direction][op] = name

    for operation in doc["operations"].values():
        if operation["action"] == "receive":
            note("client", operation["messages"])
            note("server", operation.get("reply", {}).get("messages", []))
        else:
            note("server", operation["messages"])
    return found


def _composes_objects(doc: dict, branches: list[dict]) -> bool:
    """An ``allOf`` that adds up an object's properties (not one that narrows a value)."""
    return any("properties" in (resolve(doc, branch["$ref"]) if "$ref" in branch else branch)
               for branch in branches)


def _merge_all_of(doc: dict, node: dict) -> dict:
    properties: dict = {}
    required: list = []
    for branch in node["allOf"]:
        if "$ref" in branch:
            branch = copy.deepcopy(resolve(doc, branch["$ref"]))
        if "allOf" in branch:
            branch = _merge_all_of(doc, branch)
        for name, schema in branch.get("properties", {}).items():
            properties[name] = ({"allOf": [properties[name], schema]}
                                if name in properties else schema)
        required += [name for name in branch.get("required", []) if name not in required]
    rest = {key: value for key, value in node.items() if key != "allOf"}
    return {**rest, "type": "object", "properties": properties, "required": required}


def _close(doc: dict, node):
    if isinstance(node, list):
        return [_close(doc, item) for item in node]
    if not isinstance(node, dict):
        return node
    if "allOf" in node and _composes_objects(doc, node["allOf"]):
        node = _merge_all_of(doc, node)
    node = {key: (value if key in ("const", "enum", "examples") else _close(doc, value))
            for key, value in node.items()}
    if "properties" in node and "additionalProperties" not in node:
        node["additionalProperties"] = False
    return node


@cache
def _closed_document() -> dict:
    doc = document()
    closed = copy.deepcopy(doc)
    closed["components"] = {**doc["components"],
                            "schemas": _close(doc, doc["components"]["schemas"]),
                            "messages": _close(doc, doc["components"]["messages"])}
    return closed


@cache
def _registry(closed: bool) -> Registry:
    contents = _closed_document() if closed else document()
    return Registry().with_resource(
        BASE, Resource.from_contents(contents, default_specification=DRAFT7))


def payload_validator(message_name: str, *, closed: bool = True) -> Draft7Validator:
    schema = {"$ref": f"{BASE}#/components/messages/{message_name}/payload"}
    return Draft7Validator(schema, registry=_registry(closed),
                           format_checker=Draft7Validator.FORMAT_CHECKER)


def frame_errors(frame: dict, direction: str = "server", *, closed: bool = True) -> list[str]:
    """Why ``frame`` (a parsed frame) is not a message of ``direction`` in the document:
    [] when it is one."""
    names = messages_by_direction()[direction]
    op = frame.get("op") if isinstance(frame, dict) else None
    if op not in names:
        return [f"no {direction} message with op {op!r} in docs/asyncapi.yaml"]
    validator = payload_validator(names[op], closed=closed)
    return [f"{names[op]}: {'/'.join(map(str, error.absolute_path)) or '(frame)'}: "
            f"{error.message}" for error in validator.iter_errors(frame)]


def parser_available() -> bool:
    """node, and a complete install (npm writes node_modules/.package-lock.json last)."""
    return bool(shutil.which("node")) and (TOOLS / "node_modules" / ".package-lock.json").is_file()


def run_parser(path: Path = DOCUMENT) -> dict:
    """The AsyncAPI initiative's parser (tools/asyncapi/validate.mjs) on ``path``."""
    done = subprocess.run(["node", str(TOOLS / "validate.mjs"), str(path)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    try:
        return {**json.loads(done.stdout), "exit": done.returncode}
    except json.JSONDecodeError as error:
        raise AssertionError(f"the parser printed no report: {done.stdout[:500]} "
                             f"{done.stderr[:2000]}") from error
