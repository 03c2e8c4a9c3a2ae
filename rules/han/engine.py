"""HanEngine: the Han rules behind the engine contract (rules/engine.py; docs/architecture.md,
"The engine contract").

The turn is a sequence of moves by one seat: first ``place``, ``discard`` (rule B) or, with
an empty hand in the final round, ``pass`` (ruling H13); then one ``draw`` per card until the
hand holds 3 (ruling H9); then the display is refilled and the next seat plays. Formats and
codes: rules/han/README.md.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from rules.engine import Engine, IllegalMove
from rules.han import flow, placement
from rules.han.board import get_board, map_ids
from rules.han.catalogue import catalogue_text, move_schema_of, normalize_options
from rules.han.determinize import sample_state
from rules.han.flow import HAND_SIZE
from rules.han.scoring import final_result
from rules.han.state import DRAWING, EMPTY, PLACING, HanState
from rules.han.view import build_view, move_value_from_view
from rules.han.view_schema import view_schema as han_view_schema
from rules.rng import SeededRng
from rules.text import tr

HOUSES_PER_PLAYER = 20
EMISSARIES_PER_PLAYER = 9


class HanEngine(Engine):
    name = "han"
    title = "Han"
    rules_version = "2"  # 2: the reshuffle's public facts in the state (engine_v1.py)

    # -- catalogue -------------------------------------------------------------------------
    def describe(self) -> dict:
        """The catalogue entry. ``maps[id]["board"]`` is the map's board file (spaces with
        their coordinates, provinces with outlines, roads, alliances) for clients that draw
        the map. Built once per set of maps (cached as JSON text) and handed out as a fresh
        copy, so a caller that edits its answer changes nothing for the next one."""
        return json.loads(catalogue_text(self.name, self.title, self.rules_version, *map_ids()))

    def normalize_options(self, players: int, options: dict | None) -> dict:
        return normalize_options(players, options)

    # -- the game --------------------------------------------------------------------------
    def setup(self, players: int, options: dict | None, seed: str) -> HanState:
        opts = self.normalize_options(players, options)
        board = get_board(opts["map"])
        rng = SeededRng(seed)
        removed = board.cards_removed(players)
        deck: list[str] = []
        for colour, count in zip(board.colors, board.card_counts, strict=True):
            deck.extend([colour] * (count - removed))
        rng.shuffle(deck)  # the pile's top is its end

        state = HanState.__new__(HanState)
        state.map_id = board.id
        state.board = board
        state.variant = opts["variant"]
        state.players = players
        state.rng = rng
        state.pile = deck
        state.hands = [[] for _ in range(players)]
        for _ in range(HAND_SIZE):
            for seat in range(players):
                state.hands[seat].append(deck.pop())
        for hand in state.hands:
            hand.sort(key=board.color_index.__getitem__)
        state.display = [deck.pop() for _ in range(min(board.display_size, len(deck)))]
        state.discard = []
        nspaces, nprov = len(board.space_ids), len(board.province_ids)
        state.space_owner = [-1] * nspaces
        state.space_kind = [EMPTY] * nspaces
        state.emissaries = [0] * (nprov * players)
        state.market_emissaries = [0] * (nprov * players)
        state.scored = [False] * nprov
        state.province_points = [0] * (nprov * players)
        state.scores = [0] * players
        state.houses = [HOUSES_PER_PLAYER] * players
        state.emissary_supply = [EMISSARIES_PER_PLAYER] * players
        markers = (2 if players == 2 else 1) if state.variant else 0
        state.markers = [markers] * players
        # seat 0 begins and holds the Emperor until the final scoring
        state.turn = 0
        state.phase = PLACING
        state.emperor = 0
        state.depletions = 0
        state.final_round = False
        state.last_seat = None
        state.over = False
        state.end_reason = None
        state.known = [[] for _ in range(players)]
        state.pile_known = None
        state.pile_draws = [[] for _ in range(players)]
        state.reshuffled = state.hands_then = state.known_then = state.since = None
        state.refresh_counters()
        return state

    def to_act(self, state: HanState) -> list[int]:
        return [] if state.over else [state.turn]

    def legal_moves(self, state: HanState, seat: int) -> list[dict]:
        if state.over or seat != state.turn:
            return []
        if state.phase == DRAWING:
            moves: list[dict] = [
                {"type": "draw", "from": "display", "index": i} for i in range(len(state.display))
            ]
            if state.pile:
                moves.append({"type": "draw", "from": "pile"})
            return moves
        hand = state.hands[seat]
        if not hand:
            return [{"type": "pass"}]  # ruling H13
        moves = placement.place_moves(state, seat)
        seen = set()
        for card in hand:
            if card not in seen:
                seen.add(card)
                moves.append({"type": "discard", "card": card})
        return moves

    def apply(self, state: HanState, seat: int, move: Any) -> tuple[HanState, list[dict]]:
        if not isinstance(move, dict):
            raise IllegalMove("malformed_move", tr("a move must be a JSON object"))
        move_type = move.get("type")
        if not isinstance(move_type, str):
            raise IllegalMove("malformed_move", tr("a move needs a string 'type'"))
        if move_type not in ("place", "discard", "pass", "draw"):
            raise IllegalMove(
                "unknown_move_type",
                tr("unknown move type {move_type!r}", move_type=move_type),
                {"types": ["place", "discard", "pass", "draw"]},
            )
        if state.over:
            raise IllegalMove("game_over", tr("the game is over"))
        if seat != state.turn:
            raise IllegalMove("not_your_turn", tr("it is seat {seat}'s turn", seat=state.turn))
        if move_type == "draw":
            if state.phase != DRAWING:
                raise IllegalMove("wrong_phase",
                                  tr("place, discard or pass first; draw afterwards"))
            return self._draw(state, seat, move)
        if state.phase != PLACING:
            raise IllegalMove("wrong_phase", tr("draw cards until your hand holds 3 (ruling H9)"))
        if move_type == "place":
            return self._place(state, seat, move)
        if move_type == "discard":
            return self._discard(state, seat, move)
        return self._pass(state, seat, move)

    # -- moves -----------------------------------------------------------------------------
    def _place(self, state: HanState, seat: int, move: dict):
        cards, pieces = placement.parse_place(state, move)
        placement.check_place(state, seat, cards, pieces)
        new = state.copy()
        events: list[dict] = [
            {
                "type": "placed",
                "seat": seat,
                "cards": list(cards),
                "pieces": [dict(p) for p in move["pieces"]],
            }
        ]
        for kind, target in pieces:
            completed: list[int] = []
            placement.place_piece(new, seat, kind, target, completed)
            for p in completed:
                flow.score_province(new, p, events)
        hand = new.hands[seat]
        for card in cards:
            hand.remove(card)
        new.forget_played(seat, cards)
        new.discard.extend(cards)
        if not placement.placement_possible(new):
            flow.end_game(new, "no_placement", events)  # ruling H11
            return new, events
        flow.after_action(new, seat, events)
        return new, events

    def _discard(self, state: HanState, seat: int, move: dict):
        if set(move) != {"type", "card"}:
            raise IllegalMove("malformed_move", tr("a discard move is {'type': 'discard', 'card'}"))
        card = move["card"]
        if not isinstance(card, str):
            raise IllegalMove("malformed_move", tr("'card' must be a colour name"))
        if card not in state.board.color_index:
            raise IllegalMove("unknown_card", tr("unknown card colour {card!r}", card=card))
        if card not in state.hands[seat]:
            raise IllegalMove("card_not_in_hand", tr("you hold no {card} card", card=card))
        new = state.copy()
        new.hands[seat].remove(card)
        new.forget_played(seat, [card])
        new.discard.append(card)
        events = [{"type": "discarded", "seat": seat, "card": card}]
        flow.after_action(new, seat, events)
        return new, events

    def _pass(self, state: HanState, seat: int, move: dict):
        if set(move) != {"type"}:
            raise IllegalMove("malformed_move", tr("a pass move is {'type': 'pass'}"))
        if state.hands[seat]:
            raise IllegalMove("cannot_pass", tr("you hold cards: place or discard (ruling H13)"))
        new = state.copy()
        events = [{"type": "passed", "seat": seat}]
        flow.end_turn(new, events)
        return new, events

    def _draw(self, state: HanState, seat: int, move: dict):
        source = move.get("from")
        if source == "display":
            if set(move) != {"type", "from", "index"}:
                raise IllegalMove(
                    "malformed_move",
                    tr("a display draw is {'type': 'draw', 'from': 'display', 'index': n}"),
                )
            index = move["index"]
            if isinstance(index, bool) or not isinstance(index, int):
                raise IllegalMove("malformed_move", tr("'index' must be an integer"))
            if not 0 <= index < len(state.display):
                raise IllegalMove(
                    "display_index_out_of_range",
                    tr("the display holds {count} card(s); index {index} is not one",
                       count=len(state.display), index=index),
                )
        elif source == "pile":
            if set(move) != {"type", "from"}:
                raise IllegalMove(
                    "malformed_move", tr("a pile draw is {'type': 'draw', 'from': 'pile'}")
                )
            if not state.pile:
                raise IllegalMove("pile_empty", tr("the draw pile is empty"))
        else:
            raise IllegalMove("malformed_move", tr("'from' must be 'display' or 'pile'"))
        new = state.copy()
        hand = new.hands[seat]
        if source == "display":
            card = new.display.pop(index)
            new.known[seat].append(card)  # taken face up: public
            new.known[seat].sort(key=new.board.color_index.__getitem__)
            events: list[dict] = [
                {"type": "drew", "seat": seat, "from": "display", "index": index, "card": card}
            ]
        else:
            card = new.pile.pop()
            if new.pile_known is not None:  # from the reshuffled pile: its drawer knows it
                new.pile_draws[seat].append(card)
            # the card is the drawer's secret: redact_event shows others "drew a card"
            events = [{"type": "drew", "seat": seat, "from": "pile", "card": card}]
        hand.append(card)
        hand.sort(key=new.board.color_index.__getitem__)
        if new.since is not None:  # public: which source, and a display card's colour
            new.since[seat].append("pile" if source == "pile" else f"display:{card}")
        if not new.pile and source == "pile":
            flow.deplete(new, events)
        if new.final_round:
            # ruling H10: after the second depletion nobody draws any more card
            flow.end_turn(new, events)
        elif len(hand) >= HAND_SIZE:
            flow.refill_display(new, events)
            flow.end_turn(new, events)
        return new, events

    # -- reading ---------------------------------------------------------------------------
    def view(self, state: HanState, seat: int | None) -> dict:
        return build_view(state, seat, final_result(state) if state.over else None)

    def full_view(self, state: HanState) -> dict:
        return build_view(state, None, final_result(state) if state.over else None,
                          reveal=True)

    def is_over(self, state: HanState) -> bool:
        return state.over

    def result(self, state: HanState) -> dict:
        if not state.over:
            raise IllegalMove("game_not_over", tr("the result exists only once the game is over"))
        return final_result(state)

    def to_json(self, state: HanState) -> dict:
        return state.to_json()

    def from_json(self, data: dict) -> HanState:
        return HanState.from_json(data)

    def move_value(self, view: dict, seat: int, move: dict) -> float:
        return float(move_value_from_view(view, seat, move))

    def sample_state(self, view: dict, seat: int, rng: SeededRng) -> HanState:
        """Other hands and the pile dealt from the unseen cards (rules/han/determinize.py)."""
        return sample_state(view, seat, rng)

    def estimate_scores(self, state: HanState) -> list[float]:
        """The final scoring run on the board as it stands (provinces not yet full are
        scored as they are, plus alliances, road rows and ports)."""
        return [float(score) for score in final_result(state)["scores"]]

    def move_schema(self) -> dict:
        return copy.deepcopy(move_schema_of(*map_ids()))  # callers may edit their copy

    def view_schema(self) -> dict:
        return han_view_schema()

    def redact_event(self, event: dict, viewer: int | None) -> dict:
        """A card drawn from the pile is known to its drawer only (face-down draw)."""
        if (event.get("type") == "drew" and event.get("from") == "pile"
                and event.get("seat") != viewer):
            return {key: value for key, value in event.items() if key != "card"}
        return event

    def render_svg(self, view: dict, translate=None) -> str:
        from rules.han.render import render_view_svg

        return render_view_svg(view, translate)

    def seat_colours(self) -> tuple[str, ...]:
        from rules.han.render import SEAT_COLOURS

        return tuple(SEAT_COLOURS)
