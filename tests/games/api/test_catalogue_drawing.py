"""The catalogue serves everything a frontend needs to draw each game (issue 10): Han's
canvas, colours, dragon spaces and scoring track; Hansa's cards, prosperity track with its
multipliers, profit and luxury tables; and each game's move schema. REST and GraphQL alike."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rules import get_engine
from tests.games.graphql.support import gql
from tests.games.support import API

pytestmark = pytest.mark.django_db

HEX = re.compile(r"^#[0-9a-f]{6}$")
RULES = Path(__file__).resolve().parents[3] / "rules"


def _hex_values(value):
    if isinstance(value, dict):
        for child in value.values():
            yield from _hex_values(child)
    elif isinstance(value, list):
        for child in value:
            yield from _hex_values(child)
    else:
        yield value


def test_han_canvas_colours_dragon_spaces_and_scoring_track(api_client):
    han = api_client.get(f"{API}/games/han/").json()
    drawing = han["drawing"]
    width, height = drawing["canvas"]["width"], drawing["canvas"]["height"]
    assert all(HEX.match(value) for value in _hex_values(drawing["colours"]))
    assert len(drawing["colours"]["seats"]) == han["players"]["max"]
    track = drawing["scoring_track"]
    assert track["spaces"] == len(track["at"]) == 50
    for map_id, described in han["maps"].items():
        board = described["board"]
        assert set(drawing["colours"]["cards"]) == set(board["card_counts"])
        assert set(described["dragon_spaces"]) == {p["id"] for p in board["provinces"]}
        top = min(y for p in board["provinces"] for _x, y in p["polygon"])
        assert all(0 <= x <= width and 0 <= y < top for x, y in track["at"]), map_id
        for x, y in described["dragon_spaces"].values():
            assert 0 <= x <= width and 0 <= y <= height


def test_hansa_cards_track_and_tables_are_the_engines_data(api_client):
    drawing = api_client.get(f"{API}/games/hansa/").json()["drawing"]
    shipped_cards = json.loads((RULES / "hansa/data/cards.json").read_text())
    shipped_tables = json.loads((RULES / "hansa/data/tables.json").read_text())
    # each card as shipped, with a label for people added (docs/api.md, "Languages")
    assert [{k: v for k, v in card.items() if k != "label"} for card in drawing["cards"]] \
        == shipped_cards
    assert drawing["cards"][0]["label"] == "London, person C, trade power 1"
    assert len({card["id"] for card in drawing["cards"]}) == len(get_engine("hansa").data.cards)
    track = drawing["prosperity_track"]["spaces"]
    assert all({"label", "first", "second_multiplier", "third_multiplier"} <= set(space)
               for space in track)
    for key in ("luxury_profit", "golden_ship", "persons", "luxury_pieces"):
        assert drawing[key] == shipped_tables[key]
    assert [city["name"] for city in drawing["cities"]] == shipped_tables["city_order"]
    # where each city lies on the map, so a client can draw it (issue 22)
    assert drawing["map"] == shipped_tables["map"]
    for city in drawing["cities"]:
        shipped = shipped_tables["cities"][city["name"]]
        assert (city["x"], city["y"]) == (shipped["x"], shipped["y"])
        assert 0 <= city["x"] <= drawing["map"]["width"]
        assert 0 <= city["y"] <= drawing["map"]["height"]
    assert set(drawing["colours"]["luxury"]) == {city["colour"] for city in drawing["cities"]}


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_rest_and_graphql_serve_the_same_catalogue(api_client, game):
    rest = api_client.get(f"{API}/games/{game}/").json()
    assert rest["move_schema"] == get_engine(game).move_schema()
    data = gql("""query($g: String!) { game(game: $g) { drawing moveSchema maps } }""",
               {"g": game})["data"]["game"]
    assert data["drawing"] == rest["drawing"]
    assert data["moveSchema"] == rest["move_schema"]
    assert data["maps"] == rest.get("maps")
