"""Determinization: a full state consistent with what one seat sees (``sample_state``).

Search bots (rules/bots/ismcts.py) never get the true state; they rebuild one from the
seat's view. Public fields are copied. The unseen cards are every card in the game minus
the rows, all face-up cards and the seat's own hand and face-down cards; they are dealt
uniformly over the hidden places, which the view sizes: the other hands, the other
face-down piles, the normal deck (normal cards only) and the luxury deck (luxury cards
only; luxury cards already out of it may sit in any hand or face-down pile). Other seats'
pending simultaneous choices (only *that* they chose is public) are drawn at random among
their legal choices in the sampled hands (ruling Q6). The bag has no order and public
contents, so nothing about it is sampled.

The view alone is used, not the log (cards taken from a harbour are public when taken; a
log-aware sampler could pin part of a hand); that belief is weaker but never wrong. The
seat's own returned starting cards are likewise treated as unknown once back in the deck.
"""

from __future__ import annotations

from rules.hansa import flow, moves
from rules.hansa.data import HansaData
from rules.hansa.state import KEEP, OVER, STORE, HansaState, copy_breakdown
from rules.rng import SeededRng


def _ids(cards: list[dict]) -> list[str]:
    return [card["id"] for card in cards]


def _colour_counts(data: HansaData, by_colour: dict[str, int]) -> list[int]:
    return [int(by_colour.get(colour, 0)) for colour in data.colours]


def _public_state(data: HansaData, view: dict) -> HansaState:
    """Everything the view shows, hands and hidden places left empty."""
    state = HansaState()
    n = int(view["players"])
    state.players = n
    state.round = int(view["round"])
    state.phase = view["phase"]
    state.start = int(view["start_player"])
    current = view["current_seat"]
    state.current = state.start if current is None else int(current)
    state.turns_taken = int(view["turns_taken"])
    state.changes = int(view["prosperity_changes_this_round"])
    state.prosperity = [int(view["prosperity"][city]["index"]) for city in data.cities]
    state.rows = []
    state.row_pieces = {}
    for city in data.cities:
        row = []
        for slot in view["rows"][city]:
            card_id = slot["card"]["id"]
            row.append(card_id)
            if slot["piece"] is not None:
                state.row_pieces[card_id] = data.colour_index[slot["piece"]]
        state.rows.append(row)
    state.bag = _colour_counts(data, view["bag"]["by_colour"])
    seats = view["seats"]
    state.face_up = [_ids(entry["face_up"]) for entry in seats]
    state.pieces = [_colour_counts(data, entry["pieces"]) for entry in seats]
    state.stored = [_colour_counts(data, entry["stored"]) for entry in seats]
    state.profit = [int(entry["profit"]) for entry in seats]
    state.breakdown = [copy_breakdown(entry) for entry in view["breakdown"]]
    state.chooser = view["chooser"]
    state.hands = [[] for _ in range(n)]
    state.face_down = [[] for _ in range(n)]
    return state


def _choice_from_move(data: HansaData, state: HansaState, seat: int, move: dict) -> dict:
    """The pending entry ``moves.apply_move`` would have stored for ``move``."""
    if move["type"] == "keep":
        return {"cards": [cid for cid in state.hands[seat] if cid in move["cards"]]}
    if move["type"] == "store":
        return {"pieces": _colour_counts(data, move["pieces"])}
    return {"card": move["card"], "face": move["face"]}


def _forced_choice(data: HansaData, state: HansaState, seat: int) -> dict | None:
    """The choice the engine settles by itself (flow.setup / flow.start_storage)."""
    if state.phase == KEEP and len(state.hands[seat]) <= data.hand_kept:
        return {"cards": list(state.hands[seat]), "forced": True}
    if state.phase == STORE and flow.storage_allowance(state, data, seat) == 0:
        return {"pieces": [0] * len(data.colours), "forced": True}
    return None


def sample_state(data: HansaData, view: dict, seat: int, rng: SeededRng) -> HansaState:
    """A full state whose view for ``seat`` equals ``view``; hidden cards, deck orders and
    other seats' pending choices come from ``rng``. Pure: same view and rng, same sample."""
    state = _public_state(data, view)
    n = state.players
    seats = view["seats"]
    if view["over"]:  # everything is public at the end
        state.hands = [_ids(entry["hand"]) for entry in seats]
        state.face_down = [_ids(entry["face_down"]) for entry in seats]
        state.removed = _ids(view["removed"])
        state.normal_deck = list(view["deck_contents"]["normal"])
        state.luxury_deck = list(view["deck_contents"]["luxury"])
        state.phase = OVER
        state.rng = SeededRng(f"sample:{rng.next_u64()}")
        return state
    if seat is None or not 0 <= seat < n or "hand" not in seats[seat]:
        raise ValueError("sample_state needs the view of a seat in the game")

    state.hands[seat] = _ids(seats[seat]["hand"])
    state.face_down[seat] = _ids(seats[seat]["face_down"])
    seen = {cid for row in state.rows for cid in row}
    for cards in (*state.face_up, state.hands[seat], state.face_down[seat]):
        seen.update(cards)
    unseen = [cid for cid in data.cards_in_game(n) if cid not in seen]
    luxury = [cid for cid in unseen if data.cards[cid].luxury]
    normal = [cid for cid in unseen if not data.cards[cid].luxury]
    n_luxury, n_normal = int(view["decks"]["luxury"]), int(view["decks"]["normal"])
    others = [s for s in range(n) if s != seat]
    places = sum(seats[s]["hand_size"] + seats[s]["face_down_count"] for s in others)
    if len(luxury) < n_luxury or len(normal) < n_normal or (
        len(unseen) != n_luxury + n_normal + places
    ):
        raise ValueError("the view's hidden places do not match the unseen cards")
    # uniform over consistent deals: each deck takes a random part of its own kind, the
    # rest of both kinds is mixed and dealt to the other seats' hidden places
    rng.shuffle(luxury)
    rng.shuffle(normal)
    state.luxury_deck = luxury[:n_luxury]
    state.normal_deck = normal[:n_normal]
    mixed = luxury[n_luxury:] + normal[n_normal:]
    rng.shuffle(mixed)
    for s in others:
        state.hands[s] = [mixed.pop() for _ in range(seats[s]["hand_size"])]
        state.face_down[s] = [mixed.pop() for _ in range(seats[s]["face_down_count"])]

    if view["simultaneous"] is not None:
        for s in view["simultaneous"]["chosen"]:
            forced = _forced_choice(data, state, s)
            if forced is not None:
                state.pending[s] = forced
            elif s == seat:
                state.pending[s] = _choice_from_move(data, state, s, view["my_choice"])
            else:
                # s is not in pending yet, so the engine lists its choices
                options = moves.legal_moves(state, data, s)
                pick = options[rng.randbelow(len(options))]
                state.pending[s] = _choice_from_move(data, state, s, pick)
    state.rng = SeededRng(f"sample:{rng.next_u64()}")
    return state

