"""What Han offers before a game starts: its options (checked and completed), the JSON
Schema of its moves and its catalogue entry (maps with their board data, the drawing
data, the option schema). The engine (rules/han/engine.py) answers the contract's
``normalize_options``, ``move_schema`` and ``describe`` from here."""

from __future__ import annotations

import json
from functools import cache

from rules.engine import InvalidOptions
from rules.han import placement
from rules.han.board import board_data, get_board, map_ids
from rules.han.drawing import dragon_spaces, drawing_data
from rules.move_schema import move_type, one_of
from rules.text import tr

OPTION_KEYS = ("map", "variant")
DEFAULT_MAP_MANY = "border-disputes"
DEFAULT_MAP_TWO = "ways-of-diplomacy"


def normalize_options(players: int, options: dict | None) -> dict:
    """Han's options for ``players`` seats, completed with their defaults: ``map`` (the
    default depends on the player count) and ``variant``. Raises InvalidOptions naming
    what is wrong."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise InvalidOptions("invalid_option", tr("options must be an object"))
    for key in options:
        if key not in OPTION_KEYS:
            raise InvalidOptions("unknown_option", tr("unknown option {key!r}", key=key),
                                 {"field": key})
    if isinstance(players, bool) or not isinstance(players, int):
        raise InvalidOptions(
            "invalid_player_count", tr("players must be an integer"), {"field": "players"}
        )
    maps = map_ids()
    map_id = options.get("map")
    if map_id is None:
        map_id = DEFAULT_MAP_MANY if players >= 3 else DEFAULT_MAP_TWO
    elif not isinstance(map_id, str) or map_id not in maps:
        raise InvalidOptions(
            "invalid_option",
            tr("option 'map' must be one of {maps}", maps=maps),
            {"field": "map", "allowed": maps},
        )
    variant = options.get("variant", False)
    if not isinstance(variant, bool):
        raise InvalidOptions(
            "invalid_option", tr("option 'variant' must be true or false"),
            {"field": "variant"}
        )
    board = get_board(map_id)
    if not board.min_players <= players <= board.max_players:
        raise InvalidOptions(
            "invalid_player_count",
            tr("{map} is for {min}-{max} players, not {players}", map=board.name,
               min=board.min_players, max=board.max_players, players=players),
            {"field": "players", "players": players, "min": board.min_players,
             "max": board.max_players},
        )
    return {"map": map_id, "variant": variant}


@cache
def move_schema_of(*maps: str) -> dict:
    """The moves of rules/han/README.md as JSON Schema; colours, spaces and provinces are
    plain strings (they depend on the map: the catalogue's board data lists them)."""
    colours = sorted({colour for map_id in maps for colour in get_board(map_id).colors})
    card = {"type": "string", "enum": colours, "description": "a card colour"}
    piece = {
        "type": "object",
        "required": ["kind"],
        "properties": {
            "kind": {"type": "string", "enum": list(placement.PIECE_KINDS)},
            "space": {"type": "string", "description": "space id (house and markers)"},
            "province": {"type": "string", "description": "province id (emissary)"},
        },
        "additionalProperties": False,
    }
    return one_of(
        move_type("place", "Rule A: pay with 1-3 cards for 1-2 pieces, placed in order.", {
            "cards": {"type": "array", "items": card, "minItems": 1,
                      "maxItems": placement.MAX_CARDS},
            "pieces": {"type": "array", "items": piece, "minItems": 1,
                       "maxItems": placement.MAX_PIECES},
        }, ["cards", "pieces"]),
        move_type("discard", "Rule B: discard one card instead of placing.",
                  {"card": card}, ["card"]),
        move_type("pass", "Final round with an empty hand (ruling H13)."),
        move_type("draw", "Draw one card until the hand holds 3 (ruling H9); 'index' only "
                  "for the display.", {
                      "from": {"type": "string", "enum": ["display", "pile"]},
                      "index": {"type": "integer", "minimum": 0},
                  }, ["from"]),
    )


@cache
def catalogue_text(name: str, title: str, rules_version: str, *maps: str) -> str:
    """``HanEngine.describe`` as JSON text, for one set of map ids (see there)."""
    described_maps = {}
    for map_id in maps:
        board = get_board(map_id)
        described_maps[map_id] = {
            "name": board.name,
            "players": [board.min_players, board.max_players],
            "variant": board.variant_kind,
            "board": board_data(map_id),
            "dragon_spaces": dragon_spaces(map_id),
        }
    return json.dumps(
        {
            "game": name,
            "title": title,
            "players": {
                "min": min(m["players"][0] for m in described_maps.values()),
                "max": max(m["players"][1] for m in described_maps.values()),
            },
            "options": {
                "type": "object",
                "additionalProperties": False,
                "properties": {
                    "map": {
                        "type": "string",
                        "enum": list(described_maps),
                        "description": (
                            f"default: {DEFAULT_MAP_MANY} for 3-5 players, {DEFAULT_MAP_TWO} for 2"
                        ),
                    },
                    "variant": {
                        "type": "boolean",
                        "default": False,
                        "description": (
                            "fortifications on Border Disputes, market places on Ways of Diplomacy"
                        ),
                    },
                },
            },
            "maps": described_maps,
            "drawing": drawing_data(),
            "rules_version": rules_version,
        }
    )
