"""Han map data: load a board file once and precompute the indices the rules need.

Board files live beside this module in ``boards/`` (copied from the project's shared specs;
never read from outside the package at run time). Any file in the documented format works:
the engine reads only ids, ``provinces``, ``port``, ``roads``, ``alliances``, the card table
and the player range. Every map found in the folder becomes a value of the ``map`` option.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources

FORTIFICATION = "fortification"
MARKET_PLACE = "market_place"

# The rulebook ties each variant to one side of the board; a board file of another id gets
# fortifications when it has ports or border spaces (a Border-Disputes-like map), market
# places otherwise.
_VARIANT_BY_MAP = {"border-disputes": FORTIFICATION, "ways-of-diplomacy": MARKET_PLACE}


class Board:
    """Immutable, index-based view of one map. Provinces, spaces and colours are ints."""

    def __init__(self, data: dict) -> None:
        self.id: str = data["id"]
        self.name: str = data["name"]
        self.min_players, self.max_players = (int(x) for x in data["players"])
        self.display_size: int = int(data["display_size"])
        self.cards_removed_per_color = {
            int(k): int(v) for k, v in data["cards_removed_per_color"].items()
        }
        self.colors: tuple[str, ...] = tuple(data["card_counts"])
        self.color_index = {c: i for i, c in enumerate(self.colors)}
        self.card_counts = tuple(int(data["card_counts"][c]) for c in self.colors)

        provinces = data["provinces"]
        self.province_ids: tuple[str, ...] = tuple(p["id"] for p in provinces)
        self.province_index = {pid: i for i, pid in enumerate(self.province_ids)}
        self.province_color: tuple[int, ...] = tuple(
            self.color_index[p["color"]] for p in provinces
        )

        spaces = data["spaces"]
        self.space_ids: tuple[str, ...] = tuple(s["id"] for s in spaces)
        self.space_index = {sid: i for i, sid in enumerate(self.space_ids)}
        self.space_provinces: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.province_index[p] for p in s["provinces"]) for s in spaces
        )
        self.space_is_border = tuple(len(ps) > 1 for ps in self.space_provinces)
        self.space_is_port = tuple(bool(s.get("port", False)) for s in spaces)
        self.port_spaces = tuple(i for i, p in enumerate(self.space_is_port) if p)

        nprov = len(self.province_ids)
        self.province_spaces = tuple(
            tuple(i for i, ps in enumerate(self.space_provinces) if p in ps) for p in range(nprov)
        )
        self.province_inner_spaces = tuple(
            tuple(i for i in self.province_spaces[p] if not self.space_is_border[i])
            for p in range(nprov)
        )
        self.province_border_spaces = tuple(
            tuple(i for i in self.province_spaces[p] if self.space_is_border[i])
            for p in range(nprov)
        )
        self.border_spaces = tuple(i for i, b in enumerate(self.space_is_border) if b)

        adjacency: list[set[int]] = [set() for _ in spaces]
        for a, b in data["roads"]:
            ia, ib = self.space_index[a], self.space_index[b]
            adjacency[ia].add(ib)
            adjacency[ib].add(ia)
        self.road_neighbours = tuple(tuple(sorted(s)) for s in adjacency)

        self.alliances: tuple[tuple[int, int, int], ...] = tuple(
            (
                int(a["number"]),
                self.province_index[a["provinces"][0]],
                self.province_index[a["provinces"][1]],
            )
            for a in sorted(data["alliances"], key=lambda a: int(a["number"]))
        )
        # ruling H6: two provinces completed by one border house are scored in the order
        # of their alliance numbering (lowest alliance number a province takes part in).
        first_alliance = [10**9] * nprov
        for number, a, b in self.alliances:
            first_alliance[a] = min(first_alliance[a], number)
            first_alliance[b] = min(first_alliance[b], number)
        self.province_scoring_key = tuple((first_alliance[p], p) for p in range(nprov))

        self.variant_kind = _VARIANT_BY_MAP.get(
            self.id,
            FORTIFICATION if (self.port_spaces or self.border_spaces) else MARKET_PLACE,
        )

    def cards_removed(self, players: int) -> int:
        return self.cards_removed_per_color.get(players, 0)


@cache
def _board_files() -> dict[str, dict]:
    found: dict[str, dict] = {}
    folder = resources.files("rules.han").joinpath("boards")
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".json"):
            data = json.loads(entry.read_text(encoding="utf-8"))
            found[data["id"]] = data
    return found


def map_ids() -> list[str]:
    return list(_board_files())


@cache
def get_board(map_id: str) -> Board:
    """The precomputed board for ``map_id`` (cached: built once per process)."""
    return Board(_board_files()[map_id])


def board_data(map_id: str) -> dict:
    """The raw board file, for clients that draw the map."""
    return _board_files()[map_id]
