"""The OpenAPI document's game-specific parts, added after drf-spectacular has built the
rest (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]).

- Per-game move schemas: each registered engine's ``move_schema()`` becomes components
  ``<Game><Type>Move`` (one per move type), ``<Game>Move`` (their ``oneOf`` with a
  ``type`` discriminator) and ``Move`` (any game's move). The move body of
  ``POST moves/`` and the items of ``legal-moves/`` point at ``Move`` (``MoveField``), so
  a generated client gets one class per move type. Taken from the registry when the
  schema is built: a game added to the registry appears without a change here.
- Public operations (the catalogue, health, sign-up and login) carry ``security: []``:
  no lock in Swagger UI. Reads whose answer depends on the caller (a match, its log)
  keep optional auth (``{}`` among their schemes).
- Every operation documents a 400 with the error shape: any endpoint refuses an unknown
  query parameter and a control character in its URL or query string
  (infra/api_views.py), whatever else it checks.
- Every operation documents 429, 503 (and 415 with a body) with the error shape
  (games/api/openapi_responses.py).
- Every operation names the OAuth 2 scope it needs (games/api/openapi_scopes.py).
- A JSON value that may be null (a match's ``view`` before it starts, a verdict's
  ``computed_result``, an optional ``time_control``) is any JSON value: drf-spectacular
  writes ``oneOf: [{}, {"type": "null"}]``, which null matches twice, so a null failed its
  own schema (found by schemathesis).
"""

from __future__ import annotations

import copy

from django.conf import settings
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.api.feed.views import stream_view
from games.api.openapi_responses import add_common_errors
from games.api.openapi_scopes import add_scopes
from games.api.stream_schema import FEED_COMPONENTS, STREAM_PATH
from rules import available_games, get_engine
from rules.view_schema import SCORE_BREAKDOWN

MOVE_REF = "#/components/schemas/Move"
VIEW_REF = "#/components/schemas/View"
OPTIONS_REF = "#/components/schemas/Options"
TIME_CONTROL_REF = "#/components/schemas/TimeControl"
EVENT_REF = "#/components/schemas/Event"
LOGGED_MOVE_REF = "#/components/schemas/LoggedMoveBody"
ERROR_REF = "#/components/schemas/Error"
STREAM_PATH_NAME = "/api/v1/stream/"

#: operations anyone may call with the same answer for everyone
PUBLIC_OPERATIONS = {"list_games", "get_game", "health", "register", "get_token"}


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in
                   name.replace("-", "_").split("_") if part)


# Request fields take any JSON value, so that the services, not DRF, judge it and answer
# with their own stable codes (malformed_move, invalid_ply, invalid_seat...); the schema
# still tells a client what to send.
@extend_schema_field({"$ref": MOVE_REF})
class MoveField(serializers.JSONField):
    """A move, documented as the registered games' move schemas."""


@extend_schema_field({"type": "integer", "minimum": 0})
class WholeNumberField(serializers.JSONField):
    """A whole number >= 0 (a ply, a seat position, a player count)."""


@extend_schema_field({"type": "string"})
class NameField(serializers.JSONField):
    """A registry key: a game, a bot kind, a time-control preset."""


#: marks the documented free-form parts of the document (an OpenAPI extension): JSON
#: whose shape is the engine's own and may change with its rules version, such as a
#: game's full state in a replay or a JSON Schema a game publishes. Everything else is
#: typed: tests/games/api/test_schema_has_no_any.py counts what is not, outside these.
FREE_FORM = "x-free-form"


@extend_schema_field({"type": "object", "additionalProperties": True, FREE_FORM: True})
class EngineStateField(serializers.JSONField):
    """A game's full state as its engine stores it (``engine.to_json``): free-form."""


@extend_schema_field(SCORE_BREAKDOWN)
class ScoreBreakdownField(serializers.JSONField):
    """A seat's points by category (rules/view_schema.py SCORE_BREAKDOWN)."""


@extend_schema_field({"type": "object", "additionalProperties": {"type": ["number", "null"]},
                      "example": {"pieces_left": 3}})
class TieBreakField(serializers.JSONField):
    """A seat's tie-break values by name (null where the game kept none for the seat)."""


DEPRECATED_USER = ("Deprecated: the same as username (issue 41: one name for a player, "
                   'docs/api.md "Changes").')


@extend_schema_field({"type": "string", "deprecated": True})
class DeprecatedUserField(serializers.CharField):
    """A seat's or an incident's ``user``: kept for older clients beside ``username``."""


@extend_schema_field({"type": "boolean"})
class FlagField(serializers.JSONField):
    """A JSON boolean: anything else is refused by the service with its own code."""


@extend_schema_field({"type": "string"})
class TextField(serializers.JSONField):
    """A string (an invite code): a number or a list is refused by the service."""


@extend_schema_field({"type": "array", "items": {"type": "string", "maxLength": 30},
                      "example": ["alice", "bob"]})
class UsernamesField(serializers.JSONField):
    """A list of usernames (invite: too_many_invitees, unknown_user...)."""


@extend_schema_field({"type": "object", "properties": {
    "min": {"type": ["number", "null"], "description": "Lowest mu; null or left out: none."},
    "max": {"type": ["number", "null"], "description": "Highest mu; null or left out: none."},
}})
class RatingRangeField(serializers.JSONField):
    """An openskill mu range, either end optional (invalid_input names the field)."""


@extend_schema_field({"type": "object", "additionalProperties": True})
class ObjectField(serializers.JSONField):
    """A JSON object (a game's options: see its catalogue entry)."""


@extend_schema_field({"$ref": VIEW_REF})
class ViewField(serializers.JSONField):
    """A view of the match's game: the game's ``<Game>View`` component."""


@extend_schema_field({"$ref": OPTIONS_REF})
class OptionsField(serializers.JSONField):
    """A match's options as the engine normalised them: ``<Game>Options``."""


@extend_schema_field({"$ref": TIME_CONTROL_REF})
class TimeControlField(serializers.JSONField):
    """A time control as stored."""


@extend_schema_field({"anyOf": [
    {"type": "string", "description": 'A preset name ("realtime-10+30", "none"...).'},
    {"type": "object", "description": 'A preset with a policy, or a custom clock.',
     "properties": {
         "preset": {"type": "string"},
         "timeout_policy": {"type": "string", "enum": ["takeover", "forfeit"]},
         "takeover_bot": {"type": "string"},
         "kind": {"type": "string", "enum": ["realtime", "turn_based"]},
         "initial_seconds": {"type": "integer"},
         "increment_seconds": {"type": "integer"},
         "days_per_move": {"type": "integer"}}},
]})
class TimeControlChoiceField(serializers.JSONField):
    """The time control a request asks for: a preset's name, or an object (the services
    judge it: invalid_time_control, unknown_preset)."""


@extend_schema_field({"$ref": EVENT_REF})
class EventField(serializers.JSONField):
    """One event of a move."""


@extend_schema_field({"$ref": LOGGED_MOVE_REF})
class LoggedMoveField(serializers.JSONField):
    """A move as the log shows it to the reader (redacted while the match runs)."""


@extend_schema_field({"type": "object", "additionalProperties": {"type": "string"},
                      "example": {"1": "greedy"}})
class BotSeatsField(serializers.JSONField):
    """Seat positions (as strings) to bot kinds."""


def move_components() -> dict[str, dict]:
    """``{component name: schema}`` for every registered game's moves, and ``Move``."""
    components: dict[str, dict] = {}
    games = []
    for game in available_games():
        engine = get_engine(game)
        schema = engine.move_schema()
        prefix = _camel(game)
        refs, mapping = [], {}
        for index, branch in enumerate(schema.get("oneOf", [])):
            names = branch.get("properties", {}).get("type", {}).get("enum") or []
            move_type = names[0] if len(names) == 1 else None
            name = f"{prefix}{_camel(move_type or f'move{index}')}Move"
            components[name] = {key: value for key, value in branch.items() if key != "title"}
            ref = f"#/components/schemas/{name}"
            refs.append({"$ref": ref})
            if move_type is not None:
                mapping[move_type] = ref
        game_schema: dict = {"oneOf": refs,
                             "description": f"A move of {engine.title or game} ({game})."}
        if len(mapping) == len(refs):  # every branch names its type: a discriminator
            game_schema["discriminator"] = {"propertyName": "type", "mapping": mapping}
        components[f"{prefix}Move"] = game_schema
        games.append({"$ref": f"#/components/schemas/{prefix}Move"})
    components["Move"] = {
        "oneOf": games,
        "description": "A move of the match's game, a JSON object with a type; "
        "GET legal-moves/ lists every legal one.",
    }
    return components


def game_components() -> dict[str, dict]:
    """Each registered game's view (``engine.view_schema()``) and options (its catalogue
    schema) as ``<Game>View`` / ``<Game>Options``, with ``View`` (one of them, told apart
    by ``game``) and ``Options`` (any of them: options carry no game key)."""
    components: dict[str, dict] = {}
    views, options, mapping = [], [], {}
    for game in available_games():
        engine = get_engine(game)
        prefix = _camel(game)
        view = {key: value for key, value in engine.view_schema().items() if key != "title"}
        components[f"{prefix}View"] = view
        ref = f"#/components/schemas/{prefix}View"
        views.append({"$ref": ref})
        names = view.get("properties", {}).get("game", {}).get("enum") or []
        if len(names) == 1:
            mapping[names[0]] = ref
        components[f"{prefix}Options"] = {
            **engine.describe().get("options", {"type": "object"}),
            "description": f"The options of {engine.title or game} ({game}).",
        }
        options.append({"$ref": f"#/components/schemas/{prefix}Options"})
    components["View"] = {"oneOf": views, "description": "Everything the reader's seat "
                          "(or a spectator) may see of the match's game."}
    if len(mapping) == len(views):
        components["View"]["discriminator"] = {"propertyName": "game", "mapping": mapping}
    components["Options"] = {"anyOf": options, "description": "A match's options, as the "
                             "engine normalised them (the game's catalogue schema)."}
    return components


#: the shapes every game shares: a time control as stored, an event, a logged move
COMMON_COMPONENTS = {
    "TimeControl": {
        "type": "object",
        "description": 'A time control as stored: {"preset": "none", "kind": "none"} '
        "without a clock (docs/clocks.md).",
        "required": ["preset", "kind"],
        "properties": {
            "preset": {"type": "string", "description": 'The preset\'s name, or "custom".'},
            "kind": {"type": "string", "enum": ["none", "realtime", "turn_based"]},
            "initial_seconds": {"type": "integer"},
            "increment_seconds": {"type": "integer"},
            "days_per_move": {"type": "integer"},
            "timeout_policy": {"type": "string", "enum": ["takeover", "forfeit"]},
            "takeover_bot": {"type": "string"},
        },
    },
    "Event": {
        "type": "object",
        "description": "What a move caused (each game's README lists its events): a type "
        "and that event's facts.",
        "required": ["type"],
        "properties": {"type": {"type": "string"},
                       "seat": {"type": "integer", "description": "The seat concerned, "
                                "when there is one."}},
        "additionalProperties": True,
    },
    "LoggedMoveBody": {
        "type": "object",
        "description": "A logged move: a Move, or its public stand-in while the match runs "
        '(another seat\'s secret choice shows as {"type": "keep"}).',
        "required": ["type"],
        "properties": {"type": {"type": "string"}},
        "additionalProperties": True,
    },
}


#: the language of the messages, taken by every REST endpoint (infra/language.py)
LANG_PARAMETER = {
    "name": "lang", "in": "query", "required": False,
    "schema": {"type": "string", "enum": [code for code, _name in settings.LANGUAGES]},
    "description": "The language of error messages and texts (catalogue names, board "
    "labels): en (the default) or de. Wins over the Accept-Language header; error codes "
    "never change (docs/api.md, \"Languages\").",
}

#: what every REST endpoint may answer 400 for (infra/api_views.py)
ALWAYS_BAD_REQUEST = {
    "description": "An unknown query parameter (invalid_request), or a control character "
    "in the URL or the query string (invalid_input).",
    "content": {"application/json": {"schema": {"$ref": ERROR_REF}}},
}


_NULLABLE_ANYTHING = ({}, {"type": "null"})


def any_json_where_nullable(node) -> None:
    """Replace every ``oneOf: [{}, {"type": "null"}]`` below ``node`` by no constraint."""
    pending = [node]
    while pending:
        current = pending.pop()
        if isinstance(current, dict):
            branches = current.get("oneOf")
            if isinstance(branches, list) and len(branches) == 2 and all(
                    branch in branches for branch in _NULLABLE_ANYTHING):
                del current["oneOf"]
            pending.extend(current.values())
        elif isinstance(current, list):
            pending.extend(current)


def postprocess(result, generator, request, public):
    """POSTPROCESSING_HOOKS entry: add the move components, drop the lock from public
    operations, document every endpoint's 400, let nullable JSON values be null, name
    each operation's scope."""
    any_json_where_nullable(result)
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas.update(move_components())
    schemas.update(game_components())
    schemas.update(COMMON_COMPONENTS)
    schemas.update(FEED_COMPONENTS)
    result["paths"][STREAM_PATH_NAME] = copy.deepcopy(STREAM_PATH)
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if not isinstance(operation, dict) or "responses" not in operation:
                continue
            if operation.get("operationId") in PUBLIC_OPERATIONS:
                operation["security"] = []
            operation["responses"].setdefault("400", ALWAYS_BAD_REQUEST)
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == "lang" and p.get("in") == "query" for p in parameters):
                parameters.append(LANG_PARAMETER)
    add_common_errors(result, generator)
    add_scopes(result, generator, {(STREAM_PATH_NAME, "get"): stream_view.required_scopes["GET"]})
    return result
