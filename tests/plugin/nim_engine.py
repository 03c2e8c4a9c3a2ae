"""A tiny third game that exists only in the tests: the plugin promise (issue 10).

Nim for 2-3 players: a pile of stones (option ``stones``, default 7); on your turn take 1
or 2; whoever takes the last stone wins. One secret, so redaction is exercised too: at
set-up each seat is dealt a hidden "lucky number" (1-3) from the seed, scored as a bonus
point at the end if it equals the number of stones the seat took last; the ``took``
event tells the mover its lucky number, and ``redact_event`` hides it from the others.

It is registered through the ``EXTRA_GAMES`` setting (tests/plugin/test_plugin_game.py)
and served by games/ with no change there.
"""

from __future__ import annotations

from typing import Any

from rules.engine import Engine, IllegalMove, InvalidOptions
from rules.move_schema import move_type, one_of
from rules.rng import SeededRng


class NimEngine(Engine):
    name = "nim"
    title = "Nim (test plugin)"
    rules_version = "1"

    def describe(self) -> dict:
        return {
            "game": self.name,
            "title": self.title,
            "players": {"min": 2, "max": 3},
            "options": {
                "type": "object",
                "additionalProperties": False,
                "properties": {"stones": {"type": "integer", "minimum": 3, "maximum": 30,
                                          "default": 7}},
            },
            "rules_version": self.rules_version,
            "drawing": {"stone_colour": "#777777"},
        }

    def normalize_options(self, players: int, options: dict | None) -> dict:
        options = {} if options is None else options
        if not isinstance(options, dict) or set(options) - {"stones"}:
            raise InvalidOptions("unknown_option", "the only option is 'stones'")
        stones = options.get("stones", 7)
        if isinstance(stones, bool) or not isinstance(stones, int) or not 3 <= stones <= 30:
            raise InvalidOptions("invalid_option", "'stones' is a whole number from 3 to 30")
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 3:
            raise InvalidOptions("invalid_player_count", "Nim is for 2 or 3 players")
        return {"stones": stones}

    def setup(self, players: int, options: dict | None, seed: str) -> dict:
        options = self.normalize_options(players, options)
        rng = SeededRng(seed)
        lucky = [1 + rng.randbelow(3) for _ in range(players)]
        return {"players": players, "stones": options["stones"], "turn": 0,
                "taken": [0] * players, "last_take": [0] * players, "lucky": lucky,
                "winner": None}

    def to_act(self, state: dict) -> list[int]:
        return [] if state["winner"] is not None else [state["turn"]]

    def legal_moves(self, state: dict, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        return [{"type": "take", "count": n} for n in (1, 2) if n <= state["stones"]]

    def apply(self, state: dict, seat: int, move: Any) -> tuple[dict, list[dict]]:
        if seat not in self.to_act(state):
            raise IllegalMove("not_your_turn", "it is not your turn")
        if not isinstance(move, dict) or move.get("type") != "take" or set(move) != {
                "type", "count"}:
            raise IllegalMove("malformed_move", "a move is {'type': 'take', 'count': 1|2}")
        count = move["count"]
        if count not in (1, 2) or isinstance(count, bool) or count > state["stones"]:
            raise IllegalMove("invalid_count", "take 1 or 2 stones, no more than are left")
        new = {**state, "taken": list(state["taken"]), "last_take": list(state["last_take"])}
        new["stones"] -= count
        new["taken"][seat] += count
        new["last_take"][seat] = count
        events = [{"type": "took", "seat": seat, "count": count, "left": new["stones"],
                   "lucky": state["lucky"][seat]}]
        if new["stones"] == 0:
            new["winner"] = seat
            events.append({"type": "game_over", "winner": seat})
        else:
            new["turn"] = (seat + 1) % state["players"]
            events.append({"type": "turn", "seat": new["turn"]})
        return new, events

    def view(self, state: dict, seat: int | None) -> dict:
        over = state["winner"] is not None
        return {"stones": state["stones"], "turn": state["turn"], "taken": state["taken"],
                "scores": self._scores(state) if over else [0] * state["players"],
                "winner": state["winner"],
                "lucky": state["lucky"] if over else (
                    {str(seat): state["lucky"][seat]} if seat is not None else {})}

    def _scores(self, state: dict) -> list[int]:
        return [(10 if seat == state["winner"] else 0)
                + (1 if state["last_take"][seat] == state["lucky"][seat] else 0)
                for seat in range(state["players"])]

    def is_over(self, state: dict) -> bool:
        return state["winner"] is not None

    def result(self, state: dict) -> dict:
        scores = self._scores(state)
        ranks = [1 + sum(1 for other in scores if other > score) for score in scores]
        return {"scores": scores, "ranks": ranks,
                "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
                "breakdown": [{"win": 10 if seat == state["winner"] else 0,
                               "lucky": scores[seat] % 10} for seat in range(len(scores))],
                "end_reason": "last_stone_taken"}

    def to_json(self, state: dict) -> dict:
        return dict(state)

    def from_json(self, data: dict) -> dict:
        return dict(data)

    def move_schema(self) -> dict:
        return one_of(move_type("take", "Take 1 or 2 stones.",
                                {"count": {"type": "integer", "enum": [1, 2]}}, ["count"]))

    def redact_event(self, event: dict, viewer: int | None) -> dict:
        if event.get("type") == "took" and event.get("seat") != viewer:
            return {key: value for key, value in event.items() if key != "lucky"}
        return event
