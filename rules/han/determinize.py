"""Determinization: a full Han state consistent with what one seat knows (``sample_state``).

Search bots (rules/bots/ismcts.py) never get the true state. They rebuild one from the
seat's view: every public field is copied, and the cards the seat cannot see are dealt at
random among the worlds the game's history allows. Every card is always in exactly one
of: a hand, the display, the discard pile or the draw pile, so the unseen cards are the
deck minus the seat's own hand, the display and the discard pile. The view's
``knowledge`` (public, kept by the engine as the game goes) narrows the deal:

- cards a seat took from the display and has not played since are in its hand;
- after the reshuffle, the pile holds only cards of the old discard pile that were not laid
  out on the display since, nor drawn from the pile by the seat itself (its own
  ``my_pile_draws``).

So the pile is drawn from those cards (and from the unseen ones, which it is among), then
each other hand gets its known cards and a random rest of the unseen cards. Every sample
agrees with the public history on these counts; within them the deal is uniform over the
cards, not weighted by how likely each history was (a sampler that replays the log could
weigh them; this one is cheaper and never deals a world the history rules out on these
counts).
"""

from __future__ import annotations

from collections import Counter

from rules.han import history_fit
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

    knowledge = view.get("knowledge") or {}
    known_hands = knowledge.get("in_hand") or [[] for _ in range(n)]
    state.known = [list(cards) for cards in known_hands]
    pile_may_hold = knowledge.get("pile_may_hold")
    state.pile_known = None if pile_may_hold is None else list(pile_may_hold)
    state.pile_draws = [[] for _ in range(n)]
    # what the sample's own view needs to show the same reshuffle facts (the seat's own
    # hand then is its own knowledge; the other hands then are not part of the sample)
    facts = knowledge.get("reshuffle")
    if facts is None:
        state.reshuffled = state.hands_then = state.known_then = state.since = None
    else:
        state.reshuffled = list(facts["old_discard"])
        state.known_then = [list(k) for k in facts["in_hand"]]
        state.since = [list(steps) for steps in facts["since"]]
        state.hands_then = _hands_then(board, facts, knowledge, seat, n)
    if seat is not None and 0 <= seat < n:
        state.pile_draws[seat] = list(knowledge.get("my_pile_draws", []))
    if view["game_over"]:  # everything is public once the game is over
        state.hands = [list(hand) for hand in view["hands"]]
        state.pile = list(view["pile"])
    else:
        if seat is None or not 0 <= seat < n or "hand" not in view:
            raise ValueError("sample_state needs the view of a seat in the game")
        state.hands, state.pile = _deal_fitting(board, view, seat, state, rng)

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


#: deals drawn and checked against the history before building one that fits instead (after
#: the reshuffle about 1 in 20 drawn deals fails: bench/sampler_agreement.py, "before")
_TRIES = 64


def _hands_then(board, facts: dict, knowledge: dict, seat, n: int) -> list[list[str]]:
    """Hands at the reshuffle with the view's sizes and union: the seat's own as it knows
    it, the others' share of the rest as their known cards first (the view shows only
    the union and sizes, so any such split shows the same)."""
    mine = list(knowledge.get("my_hand_at_reshuffle", []))
    rest = Counter(facts["hands_union"]) - Counter(mine)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(mine)
            continue
        hand = list(facts["in_hand"][s])
        rest.subtract(hand)
        hands.append(hand)
    spare = sorted((+rest).elements(), key=board.color_index.__getitem__)
    for s in range(n):
        while s != seat and len(hands[s]) < facts["hand_sizes"][s] and spare:
            hands[s].append(spare.pop())
    return hands


def _deal_fitting(board, view: dict, seat: int, state: HanState,
                  rng: SeededRng) -> tuple[list[list[str]], list[str]]:
    """A deal the whole history allows (``history_fit``): deals drawn uniformly within the
    known cards and the pile's possible cards, kept only if they fit, so uniform over the
    deals that fit; if none of ``_TRIES`` fits, one built to fit by a randomised search."""
    for _ in range(_TRIES):
        hands, pile = _deal_hidden(board, view, seat, state, rng)
        if history_fit.fits(view, seat, hands, pile):
            return hands, pile
    built = history_fit.fitting_deal(view, seat, list(board.colors), rng)
    if built is None:
        raise ValueError("no deal of the hidden cards fits the history")
    return built


def _deal_hidden(board, view: dict, seat: int, state: HanState,
                 rng: SeededRng) -> tuple[list[list[str]], list[str]]:
    """The other hands and the pile: the pile first, from the cards it may hold; then each
    other hand its known cards and a share of the rest."""
    n = state.players
    pool = unseen_cards(view)
    sizes = view["hand_sizes"]
    hidden = view["pile_size"] + sum(size for s, size in enumerate(sizes) if s != seat)
    if hidden != len(pool):
        raise ValueError(f"{len(pool)} unseen cards for {hidden} hidden places")
    free = Counter(pool)  # unseen cards not pinned to a hand
    for s in range(n):
        if s != seat:
            free.subtract(state.known[s])
    if any(count < 0 for count in free.values()):
        raise ValueError("the view's known cards are not among the unseen cards")
    may_be_in_pile = free
    if state.pile_known is not None:
        since_reshuffle = Counter(state.pile_known)
        since_reshuffle.subtract(state.pile_draws[seat])
        may_be_in_pile = free & since_reshuffle  # per colour, the smaller count
    candidates = sorted(may_be_in_pile.elements(), key=board.color_index.__getitem__)
    if len(candidates) < view["pile_size"]:
        raise ValueError("fewer cards may be in the pile than the pile holds")
    rng.shuffle(candidates)
    pile = candidates[: view["pile_size"]]  # a uniform shuffle: any order is as likely
    free.subtract(pile)
    rest = sorted(free.elements(), key=board.color_index.__getitem__)
    rng.shuffle(rest)
    hands = []
    for s in range(n):
        if s == seat:
            hands.append(list(view["hand"]))
            continue
        hand = list(state.known[s]) + [rest.pop() for _ in range(sizes[s] - len(state.known[s]))]
        hand.sort(key=board.color_index.__getitem__)
        hands.append(hand)
    return hands, pile
