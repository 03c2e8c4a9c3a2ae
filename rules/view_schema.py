"""Building blocks for ``Engine.view_schema``: JSON Schema (2020-12, as OpenAPI 3.1 reads
it) of what ``engine.view`` returns, so a client generated from the OpenAPI document gets
a typed view per game, as ``move_schema`` gives it typed moves.

Keys that every view carries are required; keys shown only to some readers or only
after the end (a seat's own hand, the result) are optional. Objects keyed by the game's
data (a map's spaces, a city's row) are ``additionalProperties`` maps.
"""

from __future__ import annotations

INTEGER = {"type": "integer"}
BOOLEAN = {"type": "boolean"}
STRING = {"type": "string"}
ANY_OBJECT = {"type": "object", "additionalProperties": True}

#: one seat's points by category: ``total`` in every game, the categories the game's own
#: (Han: provinces, alliances, roads...; Hansa: rounds, parliament, persons...; each
#: game's README); typed so that no client reads it as a bag of anything (issue 41)
SCORE_BREAKDOWN = {
    "type": "object", "required": ["total"],
    "properties": {"total": {"type": "integer", "description": "The seat's points."}},
    "additionalProperties": True,
    "description": "Where a seat's points came from: total and the game's categories.",
}

#: ``engine.result``: what every game's result carries, and the game's own extras
#: (tie-break values, whether scoring is final)
RESULT = {
    "type": "object", "required": ["scores", "ranks", "winners"],
    "properties": {
        "scores": {"type": "array", "items": INTEGER, "description": "Per seat."},
        "ranks": {"type": "array", "items": INTEGER, "description": "Per seat; 1 = best."},
        "winners": {"type": "array", "items": INTEGER},
        "breakdown": {"type": "array", "items": SCORE_BREAKDOWN, "description": "Per seat."},
        "end_reason": STRING,
    },
    "additionalProperties": True,
    "description": "engine.result, once over.",
}

#: a move as a view shows it back (a pending secret choice): its type and its facts
MOVE_OBJECT = {"type": "object", "required": ["type"], "properties": {"type": STRING},
               "additionalProperties": True}


def nullable(schema: dict) -> dict:
    """``schema`` or null."""
    if set(schema) <= {"type", "description", "enum", "minimum"} and isinstance(
            schema.get("type"), str):
        widened = {**schema, "type": [schema["type"], "null"]}
        if "enum" in widened:
            widened["enum"] = [*widened["enum"], None]
        return widened
    return {"oneOf": [schema, {"type": "null"}]}


def array(items: dict, description: str | None = None) -> dict:
    schema = {"type": "array", "items": items}
    return {**schema, "description": description} if description else schema


def mapping(values: dict, description: str) -> dict:
    """An object whose keys are the game's names (spaces, provinces, cities)."""
    return {"type": "object", "additionalProperties": values, "description": description}


def record(properties: dict, *, optional: tuple[str, ...] = (), title: str | None = None,
           description: str | None = None) -> dict:
    """An object with these properties, all required but ``optional``."""
    schema: dict = {"type": "object", "properties": properties,
                    "required": [name for name in properties if name not in optional]}
    if title:
        schema["title"] = title
    if description:
        schema["description"] = description
    return schema
