"""The Han game state: flat lists indexed by board ints, cheap to copy, exact JSON round trip.

Per-province-per-seat tables are flat lists indexed ``province * players + seat``. Derived
counters (houses per province and seat, filled spaces per province) are rebuilt from the
spaces on ``from_json`` rather than stored, so the JSON holds only facts.
"""

from __future__ import annotations

from rules.han.board import Board, get_board
from rules.rng import SeededRng

PLACING = 0
DRAWING = 1
PHASE_NAMES = ("placing", "drawing")

# space kinds
EMPTY = 0
HOUSE = 1
FORTIFIED_HOUSE = 2  # a fortification marker with a house on it (variant V1)
MARKET = 3  # a market-place marker; its emissary is counted in market_emissaries (V2)
KIND_NAMES = (None, "house", "fortification", "market_place")


#: the flat lists of the state, copied one by one in to_json / from_json
_LIST_FIELDS = (
    "pile", "display", "discard", "space_owner", "space_kind", "emissaries",
    "market_emissaries", "scored", "province_points", "scores", "houses",
    "emissary_supply", "markers",
)
#: the plain values of the state (whose turn, phase, end of game)
_SCALAR_FIELDS = (
    "turn", "phase", "emperor", "depletions", "final_round", "last_seat", "over", "end_reason",
)


class HanState:
    __slots__ = (
        "map_id",
        "variant",
        "players",
        "rng",
        "pile",
        "display",
        "discard",
        "hands",
        "space_owner",
        "space_kind",
        "emissaries",
        "market_emissaries",
        "scored",
        "province_points",
        "scores",
        "houses",
        "emissary_supply",
        "markers",
        "turn",
        "phase",
        "emperor",
        "depletions",
        "final_round",
        "last_seat",
        "over",
        "end_reason",
        # public knowledge from the history (view's "knowledge"; README "Public knowledge")
        "known",  # per seat: cards known to be in its hand (taken from the display)
        "pile_known",  # after the reshuffle: the cards in the pile or drawn from it unseen
        "pile_draws",  # per seat: cards it drew from the pile since the reshuffle (its own)
        # the reshuffle's facts (None before it): README "Public knowledge"
        "reshuffled",  # the old discard pile the new pile was made of (public)
        "hands_then",  # per seat: its hand at the reshuffle (its own; sizes and union public)
        "known_then",  # per seat: the cards known in its hand at the reshuffle (public)
        "since",  # per seat: "pile", "display:<colour>", "played:<colour>" since (public)
        # derived, rebuilt by refresh_counters()
        "province_houses",
        "province_filled",
        "board",
    )

    def copy(self) -> HanState:
        new = HanState.__new__(HanState)
        new.map_id = self.map_id
        new.variant = self.variant
        new.players = self.players
        new.rng = self.rng.copy()
        new.pile = self.pile[:]
        new.display = self.display[:]
        new.discard = self.discard[:]
        new.hands = [h[:] for h in self.hands]
        new.space_owner = self.space_owner[:]
        new.space_kind = self.space_kind[:]
        new.emissaries = self.emissaries[:]
        new.market_emissaries = self.market_emissaries[:]
        new.scored = self.scored[:]
        new.province_points = self.province_points[:]
        new.scores = self.scores[:]
        new.houses = self.houses[:]
        new.emissary_supply = self.emissary_supply[:]
        new.markers = self.markers[:]
        new.turn = self.turn
        new.phase = self.phase
        new.emperor = self.emperor
        new.depletions = self.depletions
        new.final_round = self.final_round
        new.last_seat = self.last_seat
        new.over = self.over
        new.end_reason = self.end_reason
        new.known = [k[:] for k in self.known]
        new.pile_known = None if self.pile_known is None else self.pile_known[:]
        new.pile_draws = [d[:] for d in self.pile_draws]
        if self.since is None:
            new.reshuffled = new.hands_then = new.known_then = new.since = None
        else:  # only `since` grows; the rest is fixed once the pile is reshuffled
            new.reshuffled = self.reshuffled
            new.hands_then = self.hands_then
            new.known_then = self.known_then
            new.since = [steps[:] for steps in self.since]
        new.province_houses = self.province_houses[:]
        new.province_filled = self.province_filled[:]
        new.board = self.board
        return new

    def refresh_counters(self) -> None:
        board: Board = self.board
        n = self.players
        houses = [0] * (len(board.province_ids) * n)
        filled = [0] * len(board.province_ids)
        for space, kind in enumerate(self.space_kind):
            if kind == EMPTY:
                continue
            owner = self.space_owner[space]
            for p in board.space_provinces[space]:
                filled[p] += 1
                if kind != MARKET:
                    houses[p * n + owner] += 1
        self.province_houses = houses
        self.province_filled = filled

    def to_json(self) -> dict:
        data = {
            "map": self.map_id,
            "variant": self.variant,
            "players": self.players,
            "rng": self.rng.to_json(),
            "hands": [h[:] for h in self.hands],
        }
        for name in _LIST_FIELDS:
            data[name] = getattr(self, name)[:]
        for name in _SCALAR_FIELDS:
            data[name] = getattr(self, name)
        data["known"] = [k[:] for k in self.known]
        data["pile_known"] = None if self.pile_known is None else self.pile_known[:]
        data["pile_draws"] = [d[:] for d in self.pile_draws]
        if self.since is not None:
            data["reshuffled"] = self.reshuffled[:]
            data["hands_then"] = [h[:] for h in self.hands_then]
            data["known_then"] = [k[:] for k in self.known_then]
            data["since"] = [steps[:] for steps in self.since]
        return data

    @classmethod
    def from_json(cls, data: dict) -> HanState:
        state = cls.__new__(cls)
        state.map_id = data["map"]
        state.board = get_board(state.map_id)
        state.variant = bool(data["variant"])
        state.players = int(data["players"])
        state.rng = SeededRng.from_json(data["rng"])
        state.hands = [list(h) for h in data["hands"]]
        for name in _LIST_FIELDS:
            setattr(state, name, list(data[name]))
        state.turn = int(data["turn"])
        state.phase = int(data["phase"])
        state.emperor = int(data["emperor"])
        state.depletions = int(data["depletions"])
        state.final_round = bool(data["final_round"])
        state.last_seat = data["last_seat"]
        state.over = bool(data["over"])
        state.end_reason = data["end_reason"]
        # states stored before the knowledge was tracked know nothing yet (a weaker belief)
        state.known = [list(k) for k in data.get("known", [[] for _ in state.hands])]
        pile_known = data.get("pile_known")
        state.pile_known = None if pile_known is None else list(pile_known)
        state.pile_draws = [list(d) for d in data.get("pile_draws", [[] for _ in state.hands])]
        # states stored before the reshuffle's facts were kept lack them (the sampler then
        # falls back to the counts above)
        state.since = None if data.get("since") is None else [list(s) for s in data["since"]]
        state.reshuffled = None if state.since is None else list(data["reshuffled"])
        state.hands_then = None if state.since is None else [list(h) for h in data["hands_then"]]
        state.known_then = None if state.since is None else [list(k) for k in data["known_then"]]
        state.refresh_counters()
        return state

    def forget_played(self, seat: int, cards: list[str]) -> None:
        """Cards ``seat`` played or discarded (public) are no longer known to be in its
        hand: each takes one of its known cards of that colour, if any (the hand held at
        least the known cards, so after the play it holds at least the rest)."""
        known = self.known[seat]
        for card in cards:
            if card in known:
                known.remove(card)
            if self.since is not None:
                self.since[seat].append(f"played:{card}")

    def pieces_left(self, seat: int) -> int:
        """Ruling H12: houses, emissaries and unplaced markers still in supply."""
        return self.houses[seat] + self.emissary_supply[seat] + self.markers[seat]
