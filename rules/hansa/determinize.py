"""Determinization: a full state consistent with what one seat knows (``sample_state``).

Search bots (rules/bots/ismcts.py) never get the true state; they rebuild one from the
seat's view. Public fields are copied. The unseen cards are every card in the game minus
the rows, all face-up cards and the seat's own hand and face-down cards; they fill the
hidden places, which the view sizes: the other hands, the other face-down piles, the
normal deck (normal cards only) and the luxury deck (luxury cards only; luxury cards
already out of it may sit in any hand or face-down pile). The view's ``knowledge`` (public,
kept by the engine as the game goes) pins part of the deal:

- a harbour card a seat took is in its hand until it plays a card face down; from then on
  it is in its hand or its face-down pile (until it is played face up);
- the seat's own returned starting cards are in the normal deck until they come out face up.

Pinned cards go to their places first (the "hand or face down" ones spread at random over
that seat's free hidden places); the other unseen cards are dealt uniformly over what is
left. Other seats' pending simultaneous choices (only *that* they chose is public) are
drawn at random among their legal choices in the sampled hands (ruling Q6). The bag has no
order and public contents, so nothing about it is sampled.
"""

from __future__ import annotations

from math import comb

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
    known = (view.get("knowledge") or {}).get("seats") or [{} for _ in range(n)]
    state.known_in_hand = [list(entry.get("in_hand", [])) for entry in known]
    state.known_hidden = [list(entry.get("in_hand_or_face_down", [])) for entry in known]
    state.known_blocks = [[list(block) for block in entry.get("taken_before_face_down", [])]
                          for entry in known]
    state.returned = [[] for _ in range(n)]
    viewer = view.get("viewer")
    if viewer is not None and 0 <= viewer < n:
        # only what is still in the deck: the rest has come out face up
        state.returned[viewer] = list((view.get("knowledge") or {}).get("returned_to_deck", []))
    return state


def _completions(sizes: list[int], plays: int) -> list[list[int]]:
    """``table[i][p]``: in how many ways blocks ``i..`` can give the rest of ``plays``
    face-down cards when ``p`` come from earlier blocks, each face-down card ``j`` (from 1)
    needing at least ``j`` cards from blocks before ``j`` (block ``i`` holds what was
    taken before face-down card ``i + 1``; block 0 also the starting cards)."""
    table = [[0] * (plays + 1) for _ in range(plays + 1)]
    table[plays][plays] = 1
    for i in range(plays - 1, -1, -1):
        for p in range(plays + 1):
            table[i][p] = sum(
                comb(sizes[i], x) * table[i + 1][p + x]
                for x in range(min(sizes[i], plays - p) + 1)
                if p + x >= i + 1
            )
    return table


def _deal_to_seat(state: HansaState, s: int, hand_size: int, face_down_count: int,
                  mixed: list[str], rng: SeededRng) -> None:
    """Seat ``s``'s hand and face-down pile, uniform over the splits its history allows.

    Its hidden cards are its known cards and ``hand_size + face_down_count - known`` of
    ``mixed`` (its starting cards still hidden). Its ``k`` face-down cards must be
    playable when they were played: face-down card ``j`` is a starting card or one taken
    before it, so (Hall's condition on these nested choices) at least ``j`` of the
    face-down cards come from the blocks before ``j``. ``_completions`` counts the splits
    that satisfy it; each block's share is drawn with those counts as weights, then a
    uniform subset of the block of that size."""
    blocks = [list(block) for block in state.known_blocks[s]]
    # views without the blocks (older states) know only "before the last face-down card"
    if len(blocks) != face_down_count:
        blocks = ([list(state.known_hidden[s])] + [[] for _ in range(face_down_count - 1)]
                  if face_down_count else [])
    known = len(state.known_in_hand[s]) + sum(len(block) for block in blocks)
    starting = [mixed.pop() for _ in range(hand_size + face_down_count - known)]
    if not blocks:
        state.hands[s] = list(state.known_in_hand[s]) + starting
        state.face_down[s] = []
        return
    blocks[0] = starting + blocks[0]
    sizes = [len(block) for block in blocks]
    table = _completions(sizes, face_down_count)
    if table[0][0] == 0:
        raise ValueError("no split of this seat's cards fits its face-down plays")
    face_down: list[str] = []
    hand = list(state.known_in_hand[s])
    taken = 0
    for i, block in enumerate(blocks):
        weights = [
            comb(sizes[i], x) * table[i + 1][taken + x] if taken + x >= i + 1 else 0
            for x in range(min(sizes[i], face_down_count - taken) + 1)
        ]
        pick = rng.randbelow(sum(weights))
        x = 0
        while pick >= weights[x]:
            pick -= weights[x]
            x += 1
        rng.shuffle(block)
        face_down += block[:x]  # blocks in play order: the k-th card fits the k-th play
        hand += block[x:]
        taken += x
    state.hands[s] = hand
    state.face_down[s] = face_down


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
    pinned = set(state.returned[seat])
    for s in range(n):
        if s != seat:
            pinned.update(state.known_in_hand[s])
            pinned.update(state.known_hidden[s])
    unseen = [cid for cid in data.cards_in_game(n) if cid not in seen]
    free = [cid for cid in unseen if cid not in pinned]
    luxury = [cid for cid in free if data.cards[cid].luxury]
    normal = [cid for cid in free if not data.cards[cid].luxury]
    n_luxury, n_normal = int(view["decks"]["luxury"]), int(view["decks"]["normal"])
    n_normal_free = n_normal - len(state.returned[seat])
    others = [s for s in range(n) if s != seat]
    places = sum(seats[s]["hand_size"] + seats[s]["face_down_count"] for s in others)
    if len(luxury) < n_luxury or len(normal) < n_normal_free or n_normal_free < 0 or (
        len(unseen) != n_luxury + n_normal + places
    ):
        raise ValueError("the view's hidden places do not match the unseen cards")
    # each deck takes a random part of its own kind (the normal one its owner's returned
    # cards too), the rest of both kinds is mixed and dealt to the other seats' places
    rng.shuffle(luxury)
    rng.shuffle(normal)
    state.luxury_deck = luxury[:n_luxury]
    state.normal_deck = normal[:n_normal_free] + state.returned[seat]
    rng.shuffle(state.normal_deck)
    mixed = luxury[n_luxury:] + normal[n_normal_free:]
    rng.shuffle(mixed)
    for s in others:
        _deal_to_seat(state, s, seats[s]["hand_size"], seats[s]["face_down_count"], mixed, rng)

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

