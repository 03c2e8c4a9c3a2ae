"""Determinization: a full Han state consistent with what one seat sees (``sample_state``).

Search bots (rules/bots/ismcts.py) never get the true state. They rebuild one from the
seat's view: every public field is copied, and the cards the seat cannot see are dealt at
random. Every card is always in exactly one of: a hand, the display, the discard pile or
the draw pile (played and discarded cards go to the discard pile, which becomes the pile
at the first depletion), so the unseen cards are the deck minus the seat's own hand, the
display and the discard pile. They fill the other hands (sizes are public) and the pile
(size public), uniformly: every deal consistent with the view is equally likely.

The view alone is used, not the log: cards an opponent took from the display are public
in the log, so a log-aware sampler could pin part of their hands; this one treats them as
unknown (a weaker but never wrong belief).
"""

from __future__ import annotations

from rules.han.board import get_board
from rules.han.scoring import province_points
from rules.han.state import DRAWING, EMPTY, KIND_NAMES, PLACING, HanState
from rules.rng import SeededRng

_KIND_CODES = {name: code for code, name in enumerate(KIND_NAMES) if name}


def unseen_cards(view: dict) -> list[str]:
    """The cards ``view``'s seat cannot place: the deck minus its hand, the display and
    the discard pile, in board colour order."""
    board = get_board(view["map"])
    removed = board.cards_removed(view["players"])
    left = {colour: count - removed for colour, count in zip(board.colors, board.card_counts,
                                                             strict=True)}
    for card in [*view.get("hand", []), *view["display"], *view["discard"]]:
        left[card] -= 1
    if any(count < 0 for count in left.values()):
        raise ValueError("the view shows more cards of a colour than the deck holds")
    return [colour for colour in board.colors for _ in range(left[colour])]


def sample_state(view: dict, seat: int, rng: SeededRng) -> HanState:
    """A full state whose ``build_view(state, seat)`` equals ``view``, with the hidden
    cards (other hands, the pile and its order) dealt from ``rng``. Pure: the same view
    and rng state give the same sample."""
    board = get_board(view["map"])
    n = int(view["players"])
    state = HanState.__new__(HanState)
    state.map_id = board.id
    state.board = board
    state.variant = bool(view["variant"])
    state.players = n
    state.display = list(view["display"])
    state.discard = list(view["discard"])

    if view["game_over"]:  # everything is public once the game is over
        state.hands = [list(hand) for hand in view["hands"]]
        state.pile = list(view["pile"])
    else:
        if seat is None or not 0 <= seat < n or "hand" not in view:
            raise ValueError("sample_state needs the view of a seat in the game")
        pool = unseen_cards(view)
        sizes = view["hand_sizes"]
        hidden = view["pile_size"] + sum(size for s, size in enumerate(sizes) if s != seat)
        if hidden != len(pool):
            raise ValueError(f"{len(pool)} unseen cards for {hidden} hidden places")
        rng.shuffle(pool)
        state.hands = []
        for s in range(n):
            if s == seat:
                state.hands.append(list(view["hand"]))
            else:
                hand = [pool.pop() for _ in range(sizes[s])]
                hand.sort(key=board.color_index.__getitem__)
                state.hands.append(hand)
        state.pile = pool  # a uniform shuffle: any order is as likely as any other

    spaces = view["board"]["spaces"]
    state.space_owner = [-1] * len(board.space_ids)
    state.space_kind = [EMPTY] * len(board.space_ids)
    for index, sid in enumerate(board.space_ids):
        cell = spaces[sid]
        if cell is not None:
            state.space_kind[index] = _KIND_CODES[cell["kind"]]
            state.space_owner[index] = cell["seat"]
    state.emissaries = []
    state.market_emissaries = []
    for pid in board.province_ids:
        state.emissaries.extend(view["board"]["emissaries"][pid])
        state.market_emissaries.extend(view["board"]["market_emissaries"][pid])
    scored = set(view["board"]["scored"])
    state.scored = [pid in scored for pid in board.province_ids]
    state.scores = list(view["scores"])
    state.houses = [entry["houses"] for entry in view["supply"]]
    state.emissary_supply = [entry["emissaries"] for entry in view["supply"]]
    state.markers = [entry["markers"] for entry in view["supply"]]
    state.emperor = view["emperor"]
    state.depletions = view["depletions"]
    state.final_round = bool(view["final_round"])
    state.last_seat = view["last_seat"]
    state.over = bool(view["game_over"])
    state.end_reason = view["end_reason"]
    state.turn = 0 if view["turn"] is None else view["turn"]
    state.phase = DRAWING if view["phase"] == "drawing" else PLACING
    # the RNG only shuffles at the first depletion: any seed the sample's owner picks will do
    state.rng = SeededRng(f"sample:{rng.next_u64()}")
    state.refresh_counters()
    # a scored province is full, so its houses never change: its points follow from the board
    state.province_points = [0] * (len(board.province_ids) * n)
    for p in range(len(board.province_ids)):
        if state.scored[p]:
            state.province_points[p * n : p * n + n] = province_points(state, p)
    return state
