"""The game state: plain lists and ints, so a copy is cheap and JSON is exact.

Cities and luxury-piece colours are indices into the data's ``city_order`` (a piece's colour
is the colour of the city with the same index). Rows hold card ids from the harbour (index
0) outwards; empty spaces are always at the right end because cards slide left.
"""

from __future__ import annotations

from rules.rng import SeededRng

# Phases, in the order a round goes through them.
KEEP = "keep"  # simultaneous: keep 2 of the 4 dealt cards (set-up only)
TURNS = "turns"  # Trade with a City / Attend Parliament, one seat at a time
FINAL_CARD = "final_card"  # simultaneous: the extra card of the last round
STORE = "store"  # simultaneous: storing luxury pieces (rounds before the last)
CHOOSE_START = "choose_start"  # the poorest player names the next start player
OVER = "over"

SIMULTANEOUS_PHASES = (KEEP, FINAL_CARD, STORE)

STATE_FORMAT = 1


class HansaState:
    __slots__ = (
        "players",
        "rng",
        "round",
        "phase",
        "start",
        "current",
        "turns_taken",
        "changes",
        "prosperity",
        "rows",
        "row_pieces",
        "bag",
        "normal_deck",
        "luxury_deck",
        "hands",
        "face_up",
        "face_down",
        "pieces",
        "stored",
        "profit",
        "breakdown",
        "pending",
        "chooser",
        "removed",
        # public knowledge from the history (view's "knowledge"; README "Public knowledge")
        "known_in_hand",  # per seat: harbour cards taken since its last face-down card
        "known_hidden",  # per seat: harbour cards taken earlier, in hand or face down
        "known_blocks",  # per seat, per face-down card: the known_hidden cards taken before it
        "returned",  # per seat: its own starting cards sent back to the normal deck
    )

    def __init__(self) -> None:
        self.players = 0
        self.rng: SeededRng = SeededRng("")
        self.round = 1
        self.phase = KEEP
        self.start = 0
        self.current = 0
        self.turns_taken = 0  # turns played this round, all seats together
        self.changes = 0  # changes in prosperity this round (ruling Q4)
        self.prosperity: list[int] = []  # track index per city
        self.rows: list[list[str]] = []  # card ids per city, harbour first
        self.row_pieces: dict[str, int] = {}  # luxury card id on the board -> piece colour
        self.bag: list[int] = []  # pieces per colour still in the bag
        self.normal_deck: list[str] = []  # index 0 is the top
        self.luxury_deck: list[str] = []
        self.hands: list[list[str]] = []
        self.face_up: list[list[str]] = []
        self.face_down: list[list[str]] = []
        self.pieces: list[list[int]] = []  # every piece in the Kontor, per colour (Q8)
        self.stored: list[list[int]] = []  # of those, the ones kept at the last storage
        self.profit: list[int] = []
        self.breakdown: list[dict] = []
        self.pending: dict[int, dict] = {}  # seat -> its secret simultaneous choice (Q6)
        self.chooser: int | None = None
        self.removed: list[str] = []  # the card left in hand after the last round
        self.known_in_hand: list[list[str]] = []
        self.known_hidden: list[list[str]] = []
        self.known_blocks: list[list[list[str]]] = []
        self.returned: list[list[str]] = []

    def copy(self) -> HansaState:
        new = HansaState.__new__(HansaState)
        new.players = self.players
        new.rng = self.rng.copy()
        new.round = self.round
        new.phase = self.phase
        new.start = self.start
        new.current = self.current
        new.turns_taken = self.turns_taken
        new.changes = self.changes
        new.prosperity = list(self.prosperity)
        new.rows = [list(row) for row in self.rows]
        new.row_pieces = dict(self.row_pieces)
        new.bag = list(self.bag)
        new.normal_deck = list(self.normal_deck)
        new.luxury_deck = list(self.luxury_deck)
        new.hands = [list(hand) for hand in self.hands]
        new.face_up = [list(cards) for cards in self.face_up]
        new.face_down = [list(cards) for cards in self.face_down]
        new.pieces = [list(counts) for counts in self.pieces]
        new.stored = [list(counts) for counts in self.stored]
        new.profit = list(self.profit)
        new.breakdown = [copy_breakdown(entry) for entry in self.breakdown]
        new.pending = {seat: _copy_choice(choice) for seat, choice in self.pending.items()}
        new.chooser = self.chooser
        new.removed = list(self.removed)
        new.known_in_hand = [list(cards) for cards in self.known_in_hand]
        new.known_hidden = [list(cards) for cards in self.known_hidden]
        new.known_blocks = [[list(block) for block in blocks] for blocks in self.known_blocks]
        new.returned = [list(cards) for cards in self.returned]
        return new

    # -- public knowledge --------------------------------------------------------------------
    def forget(self, seat: int, card_id: str) -> None:
        """``seat`` played ``card_id`` face up: it is no longer a hidden known card."""
        for cards in (self.known_in_hand[seat], self.known_hidden[seat],
                      *self.known_blocks[seat]):
            if card_id in cards:
                cards.remove(card_id)

    def conceal(self, seat: int) -> None:
        """``seat`` played a card face down: any known card of its hand may be that one,
        so each is now known only to be in its hand or face down. When each was taken
        stays known: the cards taken before this face-down card form its block (a card
        taken later cannot be this face-down card)."""
        self.known_blocks[seat].append(list(self.known_in_hand[seat]))
        self.known_hidden[seat].extend(self.known_in_hand[seat])
        self.known_in_hand[seat] = []

    # -- JSON --------------------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "format": STATE_FORMAT,
            "players": self.players,
            "rng": self.rng.to_json(),
            "round": self.round,
            "phase": self.phase,
            "start": self.start,
            "current": self.current,
            "turns_taken": self.turns_taken,
            "changes": self.changes,
            "prosperity": list(self.prosperity),
            "rows": [list(row) for row in self.rows],
            "row_pieces": dict(self.row_pieces),
            "bag": list(self.bag),
            "normal_deck": list(self.normal_deck),
            "luxury_deck": list(self.luxury_deck),
            "hands": [list(hand) for hand in self.hands],
            "face_up": [list(cards) for cards in self.face_up],
            "face_down": [list(cards) for cards in self.face_down],
            "pieces": [list(counts) for counts in self.pieces],
            "stored": [list(counts) for counts in self.stored],
            "profit": list(self.profit),
            "breakdown": [copy_breakdown(entry) for entry in self.breakdown],
            # JSON keys are strings; seats are sorted so equal states give equal JSON
            "pending": {
                str(seat): _copy_choice(self.pending[seat]) for seat in sorted(self.pending)
            },
            "chooser": self.chooser,
            "removed": list(self.removed),
            "known_in_hand": [list(cards) for cards in self.known_in_hand],
            "known_hidden": [list(cards) for cards in self.known_hidden],
            "known_blocks": [[list(block) for block in blocks] for blocks in self.known_blocks],
            "returned": [list(cards) for cards in self.returned],
        }

    @classmethod
    def from_json(cls, data: dict) -> HansaState:
        if data.get("format") != STATE_FORMAT:
            raise ValueError(f"unknown hansa state format {data.get('format')!r}")
        state = cls()
        state.players = int(data["players"])
        state.rng = SeededRng.from_json(data["rng"])
        state.round = int(data["round"])
        state.phase = str(data["phase"])
        state.start = int(data["start"])
        state.current = int(data["current"])
        state.turns_taken = int(data["turns_taken"])
        state.changes = int(data["changes"])
        state.prosperity = [int(v) for v in data["prosperity"]]
        state.rows = [list(row) for row in data["rows"]]
        state.row_pieces = {str(k): int(v) for k, v in data["row_pieces"].items()}
        state.bag = [int(v) for v in data["bag"]]
        state.normal_deck = list(data["normal_deck"])
        state.luxury_deck = list(data["luxury_deck"])
        state.hands = [list(hand) for hand in data["hands"]]
        state.face_up = [list(cards) for cards in data["face_up"]]
        state.face_down = [list(cards) for cards in data["face_down"]]
        state.pieces = [[int(v) for v in counts] for counts in data["pieces"]]
        state.stored = [[int(v) for v in counts] for counts in data["stored"]]
        state.profit = [int(v) for v in data["profit"]]
        state.breakdown = [copy_breakdown(entry) for entry in data["breakdown"]]
        state.pending = {
            int(seat): _copy_choice(choice) for seat, choice in data["pending"].items()
        }
        state.chooser = None if data["chooser"] is None else int(data["chooser"])
        state.removed = list(data["removed"])
        # states stored before the knowledge was tracked know nothing yet (a weaker belief)
        nobody = [[] for _ in range(state.players)]
        state.known_in_hand = [list(cards) for cards in data.get("known_in_hand", nobody)]
        state.known_hidden = [list(cards) for cards in data.get("known_hidden", nobody)]
        state.returned = [list(cards) for cards in data.get("returned", nobody)]
        if "known_blocks" in data:
            state.known_blocks = [[list(block) for block in blocks]
                                  for blocks in data["known_blocks"]]
        else:
            # stored before the blocks were kept: every known hidden card counts as taken
            # before the first face-down card (weaker, still true)
            state.known_blocks = [
                [list(hidden)] + [[] for _ in face_down[1:]] if face_down else []
                for hidden, face_down in zip(state.known_hidden, state.face_down, strict=True)
            ]
        return state

    def __repr__(self) -> str:  # no hidden information in logs
        return f"HansaState(players={self.players}, round={self.round}, phase={self.phase!r})"


def empty_breakdown() -> dict:
    return {
        "rounds": [],
        "parliament": 0,
        "golden_ship": 0,
        "persons": {"types": 0, "sets": 0, "type_count": 0},
        "total": 0,
    }


def _copy_choice(choice: dict) -> dict:
    """A pending choice holds lists (cards, pieces): copy them too, so a state, its copies
    and its JSON never share one."""
    return {key: list(value) if isinstance(value, list) else value
            for key, value in choice.items()}


def copy_breakdown(entry: dict) -> dict:
    """A breakdown entry sharing no dict or list with ``entry`` (states, JSON and views)."""
    return {
        "rounds": [
            {"cities": dict(round_entry["cities"]), "luxury": round_entry["luxury"]}
            for round_entry in entry["rounds"]
        ],
        "parliament": entry["parliament"],
        "golden_ship": entry["golden_ship"],
        "persons": dict(entry["persons"]),
        "total": entry["total"],
    }
