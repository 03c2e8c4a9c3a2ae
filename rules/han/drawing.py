"""What a client needs to draw Han besides the board files: the canvas, the colours, each
map's dragon spaces and the scoring track (served in the catalogue as ``drawing``).

The scoring track runs along the top edge like the printed Great Wall (rulebook: spaces
0 to 49; a counter passing 50 starts again at 0 and its player takes a point card). Its
geometry is our own, fitted to the 1000 x 700 canvas of the map files above their
provinces (which start at y = 70). Colours are those of the admin's SVG (render.py), so
both pictures agree.
"""

from __future__ import annotations

from functools import cache

from rules.han.board import board_data
from rules.han.render import (
    BOARD_HEIGHT,
    BOARD_WIDTH,
    CARD_COLOURS,
    PROVINCE_TINTS,
    SEAT_COLOURS,
    SEAT_TEXT,
)

TRACK_SPACES = 50  # 0..49, then round again with a point card (rulebook)
TRACK_Y = 35
TRACK_LEFT, TRACK_RIGHT = 30, BOARD_WIDTH - 30


@cache
def _track() -> dict:
    step = (TRACK_RIGHT - TRACK_LEFT) / (TRACK_SPACES - 1)
    return {
        "spaces": TRACK_SPACES,
        "point_card_every": TRACK_SPACES,
        "at": [[round(TRACK_LEFT + i * step, 1), TRACK_Y] for i in range(TRACK_SPACES)],
        "description": "space i shows score % 50; a player holds score // 50 point cards",
    }


def dragon_spaces(map_id: str) -> dict[str, list[float]]:
    """Where each province's dragon space (its emissaries) is drawn: the province's
    centre in the map file."""
    return {province["id"]: list(province["center"])
            for province in board_data(map_id)["provinces"]}


def drawing_data() -> dict:
    """Canvas, colours and scoring track, for every map (dragon spaces are per map)."""
    return {
        "canvas": {"width": BOARD_WIDTH, "height": BOARD_HEIGHT},
        "colours": {
            "cards": dict(CARD_COLOURS),
            "province_tints": dict(PROVINCE_TINTS),
            "seats": list(SEAT_COLOURS),
            "seat_text": list(SEAT_TEXT),
            "background": "#f4efe2",
            "roads": "#a57a4f",
            "province_border": "#6b5a44",
            "port": "#1d5fa6",
        },
        "scoring_track": _track(),
    }
