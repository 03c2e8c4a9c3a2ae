"""The Queen of Hansa behind the engine contract (rules/engine.py; docs/architecture.md, "The
engine contract")."""

from __future__ import annotations

from typing import Any

from rules.engine import Engine, IllegalMove, InvalidOptions
from rules.hansa import flow, moves, scoring
from rules.hansa.data import HansaData, load_default_data
from rules.hansa.determinize import sample_state
from rules.hansa.drawing import drawing_data
from rules.hansa.state import OVER, SIMULTANEOUS_PHASES, HansaState
from rules.hansa.view import build_view
from rules.hansa.view_schema import view_schema as hansa_view_schema
from rules.move_schema import move_type, one_of
from rules.rng import SeededRng
from rules.text import tr


def options_schema() -> dict:
    """JSON schema of the options: an empty object (the game has none)."""
    return {"type": "object", "properties": {}, "additionalProperties": False}


class HansaEngine(Engine):
    name = "hansa"
    title = "The Queen of Hansa"
    # 2: storage follows ruling Q10 (fewer pieces allowed), so v1 logs may not replay
    rules_version = "3"  # 3: known_blocks in the state (engine_v2.py)

    def __init__(self, data: HansaData | None = None) -> None:
        self.data = data if data is not None else load_default_data()

    # -- catalogue -------------------------------------------------------------------------
    def describe(self) -> dict:
        return {
            "game": self.name,
            "title": self.title,
            "players": {"min": min(self.data.player_counts), "max": max(self.data.player_counts)},
            "options": options_schema(),
            "drawing": drawing_data(self.data),
            "rules_version": self.rules_version,
        }

    def normalize_options(self, players: int, options: dict | None) -> dict:
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise InvalidOptions("invalid_options", tr("options must be a JSON object"))
        if options:
            name = sorted(options)[0]
            raise InvalidOptions(
                "unknown_option",
                tr("unknown option {name!r}: The Queen of Hansa has no options", name=name),
                {"option": name},
            )
        if (
            not isinstance(players, int)
            or isinstance(players, bool)
            or players not in self.data.player_counts
        ):
            low, high = min(self.data.player_counts), max(self.data.player_counts)
            raise InvalidOptions(
                "invalid_player_count",
                tr("The Queen of Hansa is played by {low} to {high} players, not {players!r}",
                   low=low, high=high, players=players),
                {"field": "players", "players": players, "min": low, "max": high},
            )
        return {}

    # -- the game --------------------------------------------------------------------------
    def setup(self, players: int, options: dict | None, seed: str) -> HansaState:
        self.normalize_options(players, options)
        state, _events = flow.setup(self.data, players, str(seed))
        return state

    def to_act(self, state: HansaState) -> list[int]:
        return moves.to_act(state, self.data)

    def legal_moves(self, state: HansaState, seat: int) -> list[dict]:
        return moves.legal_moves(state, self.data, seat)

    def playout_move(self, state: HansaState, seat: int, rng: SeededRng) -> dict:
        return moves.playout_move(state, self.data, seat, rng)

    def apply(self, state: HansaState, seat: int, move: Any) -> tuple[HansaState, list[dict]]:
        new_state = state.copy()
        events = moves.apply_move(new_state, self.data, seat, move)
        return new_state, events

    def view(self, state: HansaState, seat: int | None) -> dict:
        if seat is not None and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players
        ):
            raise IllegalMove("invalid_seat",
                              tr("there is no seat {seat!r} in this game", seat=seat))
        result = self.result(state) if state.phase == OVER else None
        return build_view(state, self.data, seat, result)

    def full_view(self, state: HansaState) -> dict:
        result = self.result(state) if state.phase == OVER else None
        return build_view(state, self.data, None, result, reveal=True)

    def is_over(self, state: HansaState) -> bool:
        return state.phase == OVER

    def result(self, state: HansaState) -> dict:
        """Final scores, competition ranks (tie-break: most notable-person types, then
        shared) and the breakdown. Before the end it gives the standings so far."""
        scores = list(state.profit)
        type_counts = [self._person_types(state, seat) for seat in range(state.players)]
        ranks = scoring.final_ranks(scores, type_counts)
        breakdown = []
        for entry in state.breakdown:
            breakdown.append({
                "rounds": [
                    {"cities": dict(r["cities"]), "luxury": r["luxury"]} for r in entry["rounds"]
                ],
                "parliament": entry["parliament"],
                "golden_ship": entry["golden_ship"],
                "persons": dict(entry["persons"]),
                "total": entry["total"],
            })
        return {
            "scores": scores,
            "ranks": ranks,
            "winners": [seat for seat, rank in enumerate(ranks) if rank == 1],
            "tie_break": {"person_types": type_counts},
            # the game always ends the same way: the last round scored (rulebook)
            "end_reason": "final_scoring" if state.phase == OVER else None,
            "breakdown": breakdown,
            "final": state.phase == OVER,
        }

    def _person_types(self, state: HansaState, seat: int) -> int:
        """Notable-person types in the Kontor. Face-down cards are turned up only at Final
        Scoring (rulebook), so before the end they stay out: the standings never tell what
        lies face down."""
        cards = state.face_up[seat] + (state.face_down[seat] if state.phase == OVER else [])
        return len({self.data.cards[cid].person for cid in cards if self.data.cards[cid].person})

    def to_json(self, state: HansaState) -> dict:
        return state.to_json()

    def from_json(self, data: dict) -> HansaState:
        return HansaState.from_json(data)

    # -- for the service and the bots --------------------------------------------------------
    def redact_move(self, move: dict, mover: int, viewer: int | None) -> dict:
        """Hide the secret parts of another seat's move while the game runs. Without the
        state this cannot know whether a simultaneous choice is revealed yet, so it always
        hides it: the revealed outcome is in the view and in the events."""
        if viewer == mover or not isinstance(move, dict):
            return move
        move_type = move.get("type")
        if move_type in ("keep", "store", "final_card"):
            return {"type": move_type}
        if move_type == "parliament":
            return {key: value for key, value in move.items() if key != "card"}
        return move

    def view_schema(self) -> dict:
        return hansa_view_schema()

    def move_schema(self) -> dict:
        """The moves of rules/hansa/README.md as JSON Schema; card ids are strings (the
        catalogue lists every card)."""
        data = self.data
        card = {"type": "string", "description": "a card id"}
        take = {"type": ["string", "null"], "description": "a harbour card to take, or null"}
        return one_of(
            move_type("keep", f"Set-up, simultaneous: keep {data.hand_kept} dealt cards.", {
                "cards": {"type": "array", "items": card, "minItems": data.hand_kept,
                          "maxItems": data.hand_kept},
            }, ["cards"]),
            move_type("trade", "Play a card to trade in its city, maybe taking a harbour "
                      "card.", {"card": card, "take": take}, ["card"]),
            move_type("parliament", "Play a card face down to move a city's prosperity "
                      "marker one step.", {
                          "card": card,
                          "city": {"type": "string", "enum": list(data.cities)},
                          "direction": {"type": "integer", "enum": [-1, 1]},
                          "take": take,
                      }, ["card", "city", "direction"]),
            move_type("store", "Storage, simultaneous: the luxury pieces kept per colour.", {
                "pieces": {
                    "type": "object",
                    "properties": {colour: {"type": "integer", "minimum": 0}
                                   for colour in data.colours},
                    "additionalProperties": False,
                },
            }, ["pieces"]),
            move_type("choose_start", "The poorest player names the start player.",
                      {"seat": {"type": "integer", "minimum": 0}}, ["seat"]),
            move_type("final_card", "Last round, simultaneous: the extra card, face up or "
                      "down.", {"card": card, "face": {"type": "string", "enum": ["up", "down"]}},
                      ["card", "face"]),
        )

    def redact_event(self, event: dict, viewer: int | None) -> dict:
        """Events are public in this game (secret choices are revealed by the events of
        their resolution); the choice a seat made is in ``choice_made`` for that seat
        only."""
        if event.get("type") == "choice_made" and event.get("seat") != viewer:
            return {key: value for key, value in event.items() if key != "move"}
        return event

    def decision_age(self, state: HansaState, seat: int) -> int:
        """In a simultaneous phase every seat's decision is due from the phase's start and
        other seats' secret choices change nothing about it (ruling Q6): the moves since
        then are the choices made so far (settled seats, like a storage with nothing to
        keep, made no move)."""
        if state.phase not in SIMULTANEOUS_PHASES or seat in state.pending:
            return 0
        return sum(1 for choice in state.pending.values() if not choice.get("forced"))

    def move_value(self, view: dict, seat: int, move: dict) -> float:
        from rules.hansa.heuristics import estimate_move_value

        return estimate_move_value(self.data, view, seat, move)

    def move_values(self, view: dict, seat: int, moves: list[dict]) -> list[float]:
        from rules.hansa.heuristics import estimate_move_values

        return estimate_move_values(self.data, view, seat, moves)

    def sample_state(self, view: dict, seat: int, rng: SeededRng) -> HansaState:
        """Hidden cards, deck orders and others' pending choices drawn from ``rng``
        (rules/hansa/determinize.py)."""
        return sample_state(self.data, view, seat, rng)

    def estimate_scores(self, state: HansaState) -> list[float]:
        """Profit so far, plus every round still to be scored paid as the board stands
        now, then the final scoring (rules/hansa/heuristics.py)."""
        from rules.hansa.heuristics import estimate_scores

        return estimate_scores(self.data, state)

    def render_svg(self, view: dict, translate=None) -> str:
        from rules.hansa.render import render_view_svg

        return render_view_svg(view, self.data, translate)

    def seat_colours(self) -> tuple[str, ...]:
        from rules.hansa.render import SEAT_COLOURS

        return tuple(SEAT_COLOURS)

    def drawing_legend(self) -> list[tuple[str, str]]:
        from rules.hansa.render import LEGEND

        return list(LEGEND)
