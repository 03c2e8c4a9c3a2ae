"""A client generated from our OpenAPI document with openapi-python-client is typed
(issue 22, item 4): no ``Any`` for a match's view, options, events or time control, and no
response model without fields of its own (one a client could only read as a bag of
"additional properties"). The generator runs offline on the served document."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

PACKAGE = "typed_game_client"
# no formatting hooks (offline); NDJSON streams and the board pictures read as bytes
# (the generator knows neither application/x-ndjson nor images): docs/api.md,
# "Generating a client"
CONFIG = {"post_hooks": [],
          "content_type_overrides": {
              media: "application/octet-stream"
              for media in ("application/x-ndjson", "image/png", "image/svg+xml")}}
TYPED_FIELDS = ("view", "views", "options", "events", "time_control", "time_controls")


@pytest.fixture(scope="module")
def generated(tmp_path_factory, django_db_setup, django_db_blocker):
    from django.test import Client

    into = tmp_path_factory.mktemp("client")
    with django_db_blocker.unblock():
        document = Client().get("/api/v1/schema/?format=json").json()
    (into / "schema.json").write_text(json.dumps(document))
    (into / "config.json").write_text(json.dumps(CONFIG))
    generator = Path(sys.executable).with_name("openapi-python-client")
    run = subprocess.run(
        [str(generator), "generate", "--path", str(into / "schema.json"), "--output-path",
         str(into / PACKAGE), "--meta", "none", "--config", str(into / "config.json")],
        capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-4000:]
    # the generator says so when it had to skip or loosen a part of the document
    assert "Warning" not in run.stdout and "Warning" not in run.stderr, run.stdout + run.stderr
    sys.path.insert(0, str(into))
    try:
        yield document, importlib.import_module(f"{PACKAGE}.models"), into / PACKAGE
    finally:
        sys.path.remove(str(into))
        for name in [name for name in sys.modules if name.startswith(PACKAGE)]:
            del sys.modules[name]


def _annotations(source: str, names) -> dict[str, str]:
    found = {}
    for name, annotation in re.findall(r"^    (\w+): (.+?)(?: = .*)?$", source, re.M):
        if name in names:
            found[name] = annotation
    return found


def test_view_options_events_and_time_control_are_never_any(generated):
    _document, _models, package = generated
    seen = {}
    for module in sorted((package / "models").glob("*.py")):
        for name, annotation in _annotations(module.read_text(), TYPED_FIELDS).items():
            seen[f"{module.stem}.{name}"] = annotation
    # the models where a client meets them all are there
    for field in ("match_detail.view", "match_summary.options", "match_summary.time_control",
                  "logged_move.events", "events.view", "replay.views",
                  "quick_match_request_row.options", "record.time_control"):
        assert field in seen, sorted(seen)
    untyped = {field: annotation for field, annotation in seen.items()
               if re.search(r"\bAny\b", annotation)}
    assert not untyped, untyped


def _response_components(document) -> set[str]:
    """Every component a 2xx response reaches."""
    schemas = document["components"]["schemas"]
    pending, reached = [], set()
    for operations in document["paths"].values():
        for operation in operations.values():
            for status, response in operation.get("responses", {}).items():
                if status.startswith("2"):
                    pending.extend(response.get("content", {}).values())
    while pending:
        node = pending.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
                name = ref.rsplit("/", 1)[1]
                if name not in reached:
                    reached.add(name)
                    pending.append(schemas[name])
            pending.extend(value for key, value in node.items() if key != "$ref")
        elif isinstance(node, list):
            pending.extend(node)
    return reached


def test_no_response_model_is_untyped(generated):
    document, models, _package = generated
    reached = _response_components(document)
    assert {"MatchDetail", "LobbyMatch", "LobbyInfo", "Profile", "LeaderboardRowPage",
            "Record", "FeedEvent", "HanView", "HansaView", "TimeControl"} <= reached
    bare = []
    for name in sorted(reached):
        model = getattr(models, name, None)
        if model is None or not attrs.has(model):
            continue  # a oneOf / anyOf union, an enum: typed by its members
        schema = document["components"]["schemas"][name]
        if schema.get("additionalProperties") is False and not schema.get("properties"):
            continue  # exactly typed: an object that must be empty (Hansa has no options)
        own = [field.name for field in attrs.fields(model)
               if field.name != "additional_properties"]
        if not own:
            bare.append(name)
    assert not bare, bare


#: the models a generated client makes of the document's free-form parts (``x-free-form``:
#: an engine's state, a JSON Schema a game publishes), one per part
FREE_FORM_MODELS = {"replay_state": "Replay.state",
                    "game_move_schema": "Game.move_schema",
                    "game_options": "Game.options"}


def test_no_any_anywhere_outside_the_free_form_parts(generated):
    """Issue 41: 8 request fields were ``Any`` and 29 models had no field of their own but
    a bag of ``Any``; now none, requests and errors included, except one model per
    documented free-form part."""
    from tests.games.api.schema_looseness import loose_parts

    document, _models, package = generated
    any_fields, any_bags = [], []
    for module in sorted((package / "models").glob("*.py")):
        fields = re.findall(r"^    (\w+): (.+?)(?: = .*)?$", module.read_text(), re.M)
        own = [(name, annotation) for name, annotation in fields
               if name != "additional_properties"]
        any_fields += [f"{module.stem}.{name}" for name, annotation in own
                       if re.search(r"\bAny\b", annotation)]
        if not own and ("additional_properties", "dict[str, Any]") in fields:
            any_bags.append(module.stem)
    assert any_fields == []
    assert sorted(any_bags) == sorted(FREE_FORM_MODELS)
    assert sorted(FREE_FORM_MODELS.values()) == loose_parts(document)[2]
