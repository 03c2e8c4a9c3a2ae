"""The catalogue entry's documents typed for the OpenAPI schema (issue 41: a generated
client read a game's options, maps, drawing, move schema and bot levels as bags of
anything). What a game publishes as JSON Schema (an option's schema, one move type's
schema) is a JSON Schema document: free-form by nature, marked ``x-free-form``
(games/api/openapi.py ``FREE_FORM``). docs/api.md "The catalogue" describes the values."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

FREE_FORM = "x-free-form"
INTEGER, NUMBER, STRING, BOOLEAN = ({"type": kind} for kind in
                                    ("integer", "number", "string", "boolean"))
POINT = {"type": "array", "items": NUMBER, "description": "[x, y] on the canvas."}
JSON_SCHEMA = {"type": "object", "additionalProperties": True, FREE_FORM: True,
               "description": "A JSON Schema (2020-12) document: free-form."}


def _map(values: dict, description: str) -> dict:
    return {"type": "object", "additionalProperties": values, "description": description}


def _object(properties: dict, description: str | None = None, **more) -> dict:
    schema = {"type": "object", "properties": properties, **more}
    return {**schema, "description": description} if description else schema


#: free-form as a whole: a generated client cannot take a JSON Schema's own keywords
#: ("additionalProperties") as field names (openapi-python-client clashes with its own)
OPTIONS_SCHEMA = {**JSON_SCHEMA, "description": "The JSON Schema (2020-12) of the game's "
                  "options, an object schema: free-form (the Options component types a "
                  "match's options)."}

#: free-form too: a JSON Schema's keywords ("oneOf", "discriminator") as a client's field
#: names broke the generated Python client; its typed twin is this document's Move
#: components (one per move type), built from the same engine schema
MOVE_SCHEMA = {**JSON_SCHEMA, "description": "JSON Schema (2020-12) of the game's moves: a "
               "oneOf with a type discriminator, one branch per move type; free-form here, "
               "typed as the Move components of this document."}

BOT_LEVEL = _object({
    "kind": STRING,
    "description": STRING,
    "search": {"oneOf": [_object({"iterations": INTEGER, "seconds": NUMBER}), {"type": "null"}],
               "description": "The search budget; null for random and greedy."},
    "strength": _object({
        "against": {"type": "array", "items": _object({
            "opponent": STRING, "players": INTEGER, "games": INTEGER, "win_rate": NUMBER,
            "win_ci": {"type": "array", "items": NUMBER}, "margin": NUMBER})},
        "think_time_s": _object({"median": NUMBER, "p99": NUMBER}),
    }, "Measured in this game: win rates against other levels, think time per move."),
}, "A bot kind: what it does, its search budget and its strength.", required=["kind"])

HAN_BOARD = _object({
    "id": STRING, "name": STRING,
    "players": {"type": "array", "items": INTEGER},
    "display_size": INTEGER,
    "cards_removed_per_color": _map(INTEGER, "Players (as a string) -> cards removed."),
    "card_counts": _map(INTEGER, "Colour -> cards."),
    "provinces": {"type": "array", "items": _object({
        "id": STRING, "name": STRING, "color": STRING, "center": POINT,
        "polygon": {"type": "array", "items": POINT}})},
    "spaces": {"type": "array", "items": _object({
        "id": STRING, "provinces": {"type": "array", "items": STRING}, "at": POINT,
        "port": BOOLEAN})},
    "roads": {"type": "array", "items": {"type": "array", "items": STRING}},
    "alliances": {"type": "array", "items": _object({
        "number": INTEGER, "provinces": {"type": "array", "items": STRING}})},
    "neighbours": {"type": "array", "items": {"type": "array", "items": STRING}},
}, "The board file: spaces with coordinates, provinces with outlines, roads, alliances.")

HAN_MAP = _object({
    "name": STRING, "players": {"type": "array", "items": INTEGER}, "variant": STRING,
    "board": HAN_BOARD,
    "dragon_spaces": _map({"type": "array", "items": INTEGER}, "Province -> dragon spaces."),
})

COLOURS = _map(STRING, "Name -> CSS colour.")
HAN_DRAWING = _object({
    "canvas": _object({"width": INTEGER, "height": INTEGER}),
    "colours": _object({
        "cards": COLOURS, "province_tints": COLOURS,
        "seats": {"type": "array", "items": STRING},
        "seat_text": {"type": "array", "items": STRING},
        "background": STRING, "roads": STRING, "province_border": STRING, "port": STRING}),
    "scoring_track": _object({"spaces": INTEGER, "point_card_every": INTEGER,
                              "at": {"type": "array", "items": POINT},
                              "description": STRING}),
}, "Han: the canvas, colours and scoring track.", required=["canvas"])

HANSA_DRAWING = _object({
    "map": _object({"width": INTEGER, "height": INTEGER}),
    "cities": {"type": "array", "items": _object({
        "name": STRING, "code": STRING, "colour": STRING, "x": NUMBER, "y": NUMBER,
        "label": STRING})},
    "colours": _object({
        "luxury": COLOURS, "card_tints": COLOURS, "text_on_colour": COLOURS,
        "seats": {"type": "array", "items": STRING,
                  "description": "Seat -> CSS colour (the bar at its Kontor)."}}),
    "cards": {"type": "array", "items": _object({
        "id": STRING, "city": STRING, "kind": STRING, "trade_power": INTEGER,
        "luxury": BOOLEAN, "person": {"type": ["string", "null"]}, "min_players": INTEGER,
        "label": STRING})},
    "player_counts": {"type": "array", "items": INTEGER},
    "rounds": INTEGER,
    "luxury_pieces": _map(INTEGER, "Colour -> pieces."),
    "prosperity_track": _object({
        "provisional": BOOLEAN, "start_index": INTEGER,
        "spaces": {"type": "array", "items": _object({
            "label": {"type": ["integer", "string"]}, "first": INTEGER,
            "second_multiplier": NUMBER, "third_multiplier": NUMBER})}}),
    "prosperity_change_order": {"type": "array", "items": INTEGER},
    "luxury_profit": _map(INTEGER, "Pieces -> profit."),
    "golden_ship": {"type": "array", "items": INTEGER},
    "persons": _object({"letters": {"type": "array", "items": STRING},
                        "types_profit": _map(INTEGER, "Types -> profit."),
                        "same_type_profit": _map(INTEGER, "Same type -> profit.")}),
    "turns_per_round": _map(INTEGER, "Players -> turns."),
    "setup": _map(_object({"normal": INTEGER, "luxury": INTEGER}), "Players -> pieces."),
}, "Hansa: cities and colours, every card, the prosperity track with its multipliers, "
   "the profit and luxury tables.", required=["map"])


@extend_schema_field(OPTIONS_SCHEMA)
class OptionsSchemaField(serializers.JSONField):
    """The JSON Schema of a game's options."""


@extend_schema_field(MOVE_SCHEMA)
class MoveSchemaField(serializers.JSONField):
    """The JSON Schema of a game's moves."""


@extend_schema_field(BOT_LEVEL)
class BotLevelField(serializers.JSONField):
    """A bot kind's description, budget and measured strength."""


@extend_schema_field(_map(HAN_MAP, "Han: each map by its id."))
class MapsField(serializers.JSONField):
    """Han's maps (absent for a game without maps)."""


@extend_schema_field({"anyOf": [HAN_DRAWING, HANSA_DRAWING],
                      "description": "What a client needs to draw the game (docs/api.md, "
                      "the catalogue)."})
class DrawingField(serializers.JSONField):
    """A game's drawing data: Han's or Hansa's."""
