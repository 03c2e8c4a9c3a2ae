"""Loads the card list and the tables (rules/hansa/data/*.json) into fast lookups.

The files follow the format described in rules/hansa/README.md (copied from the project's
component data). Nothing here is specific to the provisional values: printed values in the
same format load the same way. Data can also be handed in as dicts (tests build variants).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).resolve().parent / "data"


class DataFormatError(ValueError):
    """The card or table file breaks the format the engine relies on."""


def _coordinate(entry: dict, key: str, owner: str, upper: float | None) -> float:
    """A finite number ``entry[key]`` (not a bool), in [0, ``upper``] when given."""
    value = entry.get(key) if isinstance(entry, dict) else None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise DataFormatError(f"hansa data: {owner} needs a number {key}")
    if upper is not None and not 0 <= value <= upper:
        raise DataFormatError(f"hansa data: {owner}'s {key} {value} is off the map (0-{upper})")
    return value


@dataclass(frozen=True)
class Card:
    id: str
    city: int  # index into HansaData.cities (board order)
    kind: str  # person / ship / building
    trade_power: int
    luxury: bool
    person: str | None
    min_players: int

    def to_public(self, city_names: list[str]) -> dict:
        return {
            "id": self.id,
            "city": city_names[self.city],
            "kind": self.kind,
            "trade_power": self.trade_power,
            "luxury": self.luxury,
            "person": self.person,
        }


@dataclass(frozen=True)
class TrackSpace:
    label: int
    first: int
    second_multiplier: int
    third_multiplier: int


class HansaData:
    """Cards and tables, indexed for the engine. Cities are referred to by their index in
    ``city_order``; a luxury piece's colour by the index of the city of that colour."""

    def __init__(self, cards: list[dict], tables: dict) -> None:
        # the files as given, for the catalogue (rules/hansa/drawing.py): a client draws
        # from the same data the engine plays with; JSON text, so nobody edits it in place
        self.source_text = json.dumps({"cards": cards, "tables": tables})
        try:
            self._load(cards, tables)
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, DataFormatError):
                raise
            raise DataFormatError(f"hansa data: {error!r}") from error

    def _load(self, cards: list[dict], tables: dict) -> None:
        self.cities: list[str] = list(tables["city_order"])
        self.city_index = {name: i for i, name in enumerate(self.cities)}
        self.colours: list[str] = [tables["cities"][name]["colour"] for name in self.cities]
        self._load_map(tables)
        self.colour_index = {colour: i for i, colour in enumerate(self.colours)}
        if len(set(self.colours)) != len(self.colours):
            raise DataFormatError("hansa data: two cities share a colour")

        self.cards: dict[str, Card] = {}
        for raw in cards:
            if raw["city"] not in self.city_index:
                raise DataFormatError(f"hansa data: card {raw['id']} has unknown city")
            if raw["id"] in self.cards:
                raise DataFormatError(f"hansa data: duplicate card id {raw['id']}")
            self.cards[raw["id"]] = Card(
                id=str(raw["id"]),
                city=self.city_index[raw["city"]],
                kind=str(raw["kind"]),
                trade_power=int(raw["trade_power"]),
                luxury=bool(raw["luxury"]),
                person=raw["person"],
                min_players=int(raw["min_players"]),
            )
        # the order of the file is the unshuffled deck order, so shuffles are reproducible
        self.card_order: list[str] = [str(raw["id"]) for raw in cards]

        self.player_counts: list[int] = sorted(int(n) for n in tables["player_counts"])
        self.rounds = int(tables["rounds"])
        self.luxury_pieces: list[int] = [
            int(tables["luxury_pieces"].get(colour, 0)) for colour in self.colours
        ]
        unknown = set(tables["luxury_pieces"]) - set(self.colours)
        if unknown:
            raise DataFormatError(f"hansa data: luxury pieces of unknown colour {sorted(unknown)}")

        track = tables["prosperity_track"]
        self.track: list[TrackSpace] = [
            TrackSpace(
                label=int(space["label"]),
                first=int(space["first"]),
                second_multiplier=int(space["second_multiplier"]),
                third_multiplier=int(space["third_multiplier"]),
            )
            for space in track["spaces"]
        ]
        self.track_start = int(track["start_index"])
        if not 0 <= self.track_start < len(self.track):
            raise DataFormatError("hansa data: prosperity start_index is off the track")
        self.provisional = bool(track.get("provisional", False))

        self.change_order: list[int] = [int(step) for step in tables["prosperity_change_order"]]
        self.luxury_profit: dict[int, int] = {
            int(k): int(v) for k, v in tables["luxury_profit"].items()
        }
        self.golden_ship: list[int] = [int(v) for v in tables["golden_ship"]]
        persons = tables["persons"]
        self.person_letters: list[str] = list(persons["letters"])
        self.person_types_profit: dict[int, int] = {
            int(k): int(v) for k, v in persons["types_profit"].items()
        }
        self.person_same_type_profit: dict[int, int] = {
            int(k): int(v) for k, v in persons["same_type_profit"].items()
        }
        self.turns_per_round = {int(k): int(v) for k, v in tables["turns_per_round"].items()}
        self.setup_cards = {
            int(k): (int(v["normal"]), int(v["luxury"])) for k, v in tables["setup"].items()
        }
        self.refill_cards = {
            int(k): (int(v["normal"]), int(v["luxury"])) for k, v in tables["refill"].items()
        }
        self.hand_dealt = int(tables["starting_hand"]["dealt"])
        self.hand_kept = int(tables["starting_hand"]["kept"])
        if not 0 < self.hand_kept <= self.hand_dealt:
            raise DataFormatError("hansa data: starting_hand needs 0 < kept <= dealt")
        self.spaces_per_city = {int(k): int(v) for k, v in tables["spaces_per_city"].items()}
        self.harbour_spaces = int(tables["harbour_spaces"])
        for players in self.player_counts:
            for table in (self.turns_per_round, self.setup_cards, self.refill_cards,
                          self.spaces_per_city):
                if players not in table:
                    raise DataFormatError(f"hansa data: no entry for {players} players")

    def _load_map(self, tables: dict) -> None:
        """``map`` (the canvas: ``width``, ``height``) and each city's ``x``/``y`` on it,
        for clients that draw the cities where they lie (the catalogue's ``drawing``)."""
        canvas = tables["map"]
        self.map_size: tuple[float, float] = (
            _coordinate(canvas, "width", "map", None), _coordinate(canvas, "height", "map", None))
        if min(self.map_size) <= 0:
            raise DataFormatError("hansa data: the map needs a width and a height above 0")
        self.city_positions: list[tuple[float, float]] = [
            (_coordinate(tables["cities"][name], "x", name, self.map_size[0]),
             _coordinate(tables["cities"][name], "y", name, self.map_size[1]))
            for name in self.cities
        ]

    # -- small helpers used all over the engine ---------------------------------------------
    def cards_in_game(self, players: int) -> list[str]:
        return [cid for cid in self.card_order if self.cards[cid].min_players <= players]

    def luxury_for_colours(self, colour_count: int) -> int:
        return self.luxury_profit.get(colour_count, 0)

    def same_type_for(self, count: int) -> int:
        """Profit for ``count`` cards of one notable person. Counts beyond the table (only
        possible with other data) pay the largest entry."""
        if count in self.person_same_type_profit:
            return self.person_same_type_profit[count]
        smaller = [k for k in self.person_same_type_profit if k <= count]
        return self.person_same_type_profit[max(smaller)] if smaller else 0

    def person_types_for(self, types: int) -> int:
        if types in self.person_types_profit:
            return self.person_types_profit[types]
        smaller = [k for k in self.person_types_profit if k <= types]
        return self.person_types_profit[max(smaller)] if smaller else 0


def load_default_data() -> HansaData:
    """The data files shipped in rules/hansa/data/."""
    with open(DATA_DIR / "cards.json", encoding="utf-8") as cards_file:
        cards = json.load(cards_file)
    with open(DATA_DIR / "tables.json", encoding="utf-8") as tables_file:
        tables = json.load(tables_file)
    return HansaData(cards, tables)
