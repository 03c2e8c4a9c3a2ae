"""What a client needs to draw The Queen of Hansa (served in the catalogue as ``drawing``):
the cities with their colours and their places on the map, every card, the prosperity
track with its multipliers, and the profit and luxury tables, straight from the data files
the engine plays with (rules/hansa/data/), plus the colour values of the admin's SVG
(render.py) so both pictures agree.
"""

from __future__ import annotations

import json

from rules.hansa.data import HansaData
from rules.hansa.render import COLOURS, ON_COLOUR, SEAT_COLOURS, TINTS

#: the tables a client needs, by their key in tables.json
TABLE_KEYS = (
    "player_counts", "rounds", "luxury_pieces", "prosperity_track",
    "prosperity_change_order", "luxury_profit", "golden_ship", "persons", "turns_per_round",
    "setup", "refill", "starting_hand", "spaces_per_city", "harbour_spaces", "removed_cards",
)


def drawing_data(data: HansaData) -> dict:
    source = json.loads(data.source_text)
    tables = source["tables"]
    return {
        # where each city lies on the map (tables.json: ``map`` and each city's x/y)
        "map": {"width": data.map_size[0], "height": data.map_size[1]},
        "cities": [
            {"name": name, "code": tables["cities"][name]["code"],
             "colour": tables["cities"][name]["colour"], "x": x, "y": y}
            for name, (x, y) in zip(data.cities, data.city_positions, strict=True)
        ],
        "colours": {
            "luxury": dict(COLOURS),
            "card_tints": dict(TINTS),
            "seats": list(SEAT_COLOURS),
            "text_on_colour": {colour: ON_COLOUR.get(colour, "#ffffff") for colour in COLOURS},
        },
        "cards": source["cards"],
        **{key: tables[key] for key in TABLE_KEYS if key in tables},
    }
