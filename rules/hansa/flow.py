"""How a game moves from phase to phase: set-up, the turns, scoring, storage, the next
round, the final scoring. Everything here runs on a fresh copy of the state."""

from __future__ import annotations

from rules.hansa import board, scoring
from rules.hansa.data import HansaData
from rules.hansa.state import (
    CHOOSE_START,
    FINAL_CARD,
    KEEP,
    OVER,
    STORE,
    TURNS,
    HansaState,
    empty_breakdown,
)
from rules.rng import SeededRng

# The rulebook's start player is "who most recently boarded a ship"; the service cannot
# ask, so seat 0 starts the first round. Later rounds: the poorest player chooses.
FIRST_START_PLAYER = 0


# -- set-up ------------------------------------------------------------------------------
def setup(data: HansaData, players: int, seed: str) -> tuple[HansaState, list[dict]]:
    """Remove cards by player-count mark, shuffle the two decks (normal first, then luxury,
    each from the file's order), lay out the rows, place pieces, deal the starting hands."""
    state = HansaState()
    state.players = players
    state.rng = SeededRng(seed)
    colours = len(data.cities)
    state.prosperity = [data.track_start] * colours
    state.rows = [[] for _ in range(colours)]
    state.bag = list(data.luxury_pieces)
    in_game = data.cards_in_game(players)
    state.normal_deck = [cid for cid in in_game if not data.cards[cid].luxury]
    state.luxury_deck = [cid for cid in in_game if data.cards[cid].luxury]
    state.rng.shuffle(state.normal_deck)
    state.rng.shuffle(state.luxury_deck)
    state.hands = [[] for _ in range(players)]
    state.known_in_hand = [[] for _ in range(players)]
    state.known_hidden = [[] for _ in range(players)]
    state.known_blocks = [[] for _ in range(players)]
    state.returned = [[] for _ in range(players)]
    state.face_up = [[] for _ in range(players)]
    state.face_down = [[] for _ in range(players)]
    state.pieces = [[0] * colours for _ in range(players)]
    state.stored = [[0] * colours for _ in range(players)]
    state.profit = [0] * players
    state.breakdown = [empty_breakdown() for _ in range(players)]
    state.start = FIRST_START_PLAYER
    state.current = FIRST_START_PLAYER

    events: list[dict] = []
    normal, luxury = data.setup_cards[players]
    board.lay_out(state, data, normal, luxury, events)
    # each seat in turn takes its whole starting hand from the top of the normal deck
    for seat in range(players):
        state.hands[seat] = board.draw_cards(state.normal_deck, data.hand_dealt)
    state.phase = KEEP
    for seat in range(players):
        # nothing to choose when the deck dealt no more than a hand (only with other data)
        if len(state.hands[seat]) <= data.hand_kept:
            state.pending[seat] = {"cards": list(state.hands[seat]), "forced": True}
    if not owing_seats(state, data):
        resolve_keep(state, data, events)
    return state, events


def resolve_keep(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """Every seat has chosen (ruling Q6): the unchosen cards go back into the normal deck,
    which is then shuffled. Which cards went back stays secret."""
    for seat in range(state.players):
        kept = state.pending[seat]["cards"]
        returned = [cid for cid in state.hands[seat] if cid not in kept]
        state.hands[seat] = [cid for cid in state.hands[seat] if cid in kept]
        state.normal_deck.extend(returned)
        state.returned[seat] = returned  # its owner knows they are in the deck
    state.pending = {}
    state.rng.shuffle(state.normal_deck)
    events.append({"type": "hands_kept", "deck_shuffled": "normal"})
    start_turns(state, data, events)


# -- the turns -----------------------------------------------------------------------------
def turns_in_round(state: HansaState, data: HansaData) -> int:
    return data.turns_per_round[state.players] * state.players


def start_turns(state: HansaState, data: HansaData, events: list[dict]) -> None:
    state.phase = TURNS
    state.current = state.start
    state.turns_taken = 0
    state.changes = 0
    events.append({"type": "round_started", "round": state.round, "start_player": state.start})
    _skip_seats_without_cards(state, data, events)


def end_turn(state: HansaState, data: HansaData, events: list[dict]) -> None:
    state.turns_taken += 1
    state.current = (state.current + 1) % state.players
    _skip_seats_without_cards(state, data, events)


def _skip_seats_without_cards(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """A seat with an empty hand cannot play (only possible when Q5 left a hand short);
    its turn passes. With the shipped data hands always hold 2 cards."""
    total = turns_in_round(state, data)
    while state.turns_taken < total and not state.hands[state.current]:
        events.append({"type": "turn_passed", "seat": state.current})
        state.turns_taken += 1
        state.current = (state.current + 1) % state.players
    if state.turns_taken >= total:
        _end_of_turns(state, data, events)


def _end_of_turns(state: HansaState, data: HansaData, events: list[dict]) -> None:
    if state.round >= data.rounds:
        state.phase = FINAL_CARD
        state.pending = {}
        if not owing_seats(state, data):
            resolve_final_card(state, data, events)
    else:
        score_round(state, data, events)
        start_storage(state, data, events)


# -- simultaneous choices -------------------------------------------------------------------
def owing_seats(state: HansaState, data: HansaData) -> list[int]:
    """Seats that still owe a choice in the current simultaneous phase (ruling Q6)."""
    if state.phase == FINAL_CARD:
        return [
            seat for seat in range(state.players)
            if seat not in state.pending and state.hands[seat]
        ]
    if state.phase in (KEEP, STORE):
        return [seat for seat in range(state.players) if seat not in state.pending]
    return []


def resolve_final_card(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """The last round's extra card, placed by all at once; the card left in hand leaves the
    game unseen (it becomes public only with everything else at the end)."""
    for seat in range(state.players):
        choice = state.pending.get(seat)
        if choice is not None:
            card_id = choice["card"]
            state.hands[seat].remove(card_id)
            if choice["face"] == "up":
                state.face_up[seat].append(card_id)
                state.forget(seat, card_id)
                events.append({"type": "final_card", "seat": seat, "face": "up",
                               "card": card_id})
            else:
                state.face_down[seat].append(card_id)
                state.conceal(seat)
                events.append({"type": "final_card", "seat": seat, "face": "down"})
        state.removed.extend(state.hands[seat])
        state.hands[seat] = []
    state.pending = {}
    score_round(state, data, events)
    final_scoring(state, data, events)


def storage_allowance(state: HansaState, data: HansaData, seat: int) -> int:
    """The most pieces a seat may keep at this storage: one per face-up trade ship, and no
    more than it has (ruling Q10: earlier stored pieces count towards it)."""
    ships = sum(1 for cid in state.face_up[seat] if data.cards[cid].kind == "ship")
    return min(ships, sum(state.pieces[seat]))


def start_storage(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """Ruling Q10: a seat keeps *at most* its allowance, any pieces it likes, so it has a
    choice whenever it may keep at least one piece. Only a seat with nothing to keep (no
    face-up ship, or no piece) has a single possible choice; it is settled at once, the
    others owe a secret choice (ruling Q6)."""
    state.phase = STORE
    state.pending = {}
    for seat in range(state.players):
        if storage_allowance(state, data, seat) == 0:
            state.pending[seat] = {"pieces": [0] * len(state.pieces[seat]), "forced": True}
    if not owing_seats(state, data):
        resolve_storage(state, data, events)


def resolve_storage(state: HansaState, data: HansaData, events: list[dict]) -> None:
    for seat in range(state.players):
        kept = list(state.pending[seat]["pieces"])
        state.pieces[seat] = list(kept)
        state.stored[seat] = list(kept)
        events.append({
            "type": "pieces_stored",
            "seat": seat,
            "pieces": {data.colours[c]: n for c, n in enumerate(kept)},
        })
    state.pending = {}
    board.support_weakest(state, data, events)
    normal, luxury = data.refill_cards[state.players]
    board.lay_out(state, data, normal, luxury, events)
    state.chooser = poorest_player(state)
    state.phase = CHOOSE_START
    events.append({"type": "start_player_to_choose", "seat": state.chooser})


def poorest_player(state: HansaState) -> int:
    """Least profit; among ties the one later in this round's turn order."""
    lowest = min(state.profit)
    tied = [seat for seat in range(state.players) if state.profit[seat] == lowest]
    return max(tied, key=lambda seat: (seat - state.start) % state.players)


def choose_start(state: HansaState, data: HansaData, seat: int, events: list[dict]) -> None:
    state.start = seat
    state.chooser = None
    state.round += 1
    events.append({"type": "start_player_chosen", "seat": seat})
    start_turns(state, data, events)


# -- scoring -------------------------------------------------------------------------------
def city_totals(state: HansaState, data: HansaData, city: int) -> list[int]:
    """Face-up trade power in the city's colour plus every luxury piece of that colour in the
    Kontor, stored ones included (ruling Q8); face-down cards do not count."""
    totals = []
    for seat in range(state.players):
        power = sum(
            data.cards[cid].trade_power
            for cid in state.face_up[seat]
            if data.cards[cid].city == city
        )
        totals.append(power + state.pieces[seat][city])
    return totals


def score_round(state: HansaState, data: HansaData, events: list[dict]) -> None:
    per_seat = [{"cities": {}, "luxury": 0} for _ in range(state.players)]
    for city in range(len(data.cities)):
        space = data.track[state.prosperity[city]]
        profits = scoring.city_profits(space, city_totals(state, data, city))
        for seat, profit in enumerate(profits):
            per_seat[seat]["cities"][data.cities[city]] = profit
    for seat in range(state.players):
        per_seat[seat]["luxury"] = scoring.luxury_profit(data, state.pieces[seat])
        gained = sum(per_seat[seat]["cities"].values()) + per_seat[seat]["luxury"]
        state.profit[seat] += gained
        state.breakdown[seat]["rounds"].append(per_seat[seat])
        state.breakdown[seat]["total"] = state.profit[seat]
    events.append({
        "type": "round_scored",
        "round": state.round,
        # copies: an event must not alias the state it was produced with
        "profits": [{"cities": dict(p["cities"]), "luxury": p["luxury"]} for p in per_seat],
    })


def final_scoring(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """Parliament (face-down power), Golden Ship (all ships), notable persons (all cards);
    after Parliament every Kontor card counts as face up."""
    powers = [
        sum(data.cards[cid].trade_power for cid in state.face_down[seat])
        for seat in range(state.players)
    ]
    parliament = scoring.parliament_profits(data, powers, state.prosperity)
    kontors = [state.face_up[seat] + state.face_down[seat] for seat in range(state.players)]
    ships = [sum(1 for cid in cards if data.cards[cid].kind == "ship") for cards in kontors]
    golden = scoring.golden_ship_profits(data, ships)
    for seat in range(state.players):
        letters = [data.cards[cid].person for cid in kontors[seat] if data.cards[cid].person]
        types_profit, sets_profit, type_count = scoring.person_profits(data, letters)
        entry = state.breakdown[seat]
        entry["parliament"] = parliament[seat]
        entry["golden_ship"] = golden[seat]
        entry["persons"] = {"types": types_profit, "sets": sets_profit, "type_count": type_count}
        state.profit[seat] += parliament[seat] + golden[seat] + types_profit + sets_profit
        entry["total"] = state.profit[seat]
    events.append({
        "type": "final_scoring",
        "face_down": [list(cards) for cards in state.face_down],
        "parliament_power": powers,
        "parliament": parliament,
        "ships": ships,
        "golden_ship": golden,
        "persons": [dict(state.breakdown[seat]["persons"]) for seat in range(state.players)],
        "scores": list(state.profit),
    })
    state.phase = OVER
    state.pending = {}
    events.append({"type": "game_over", "scores": list(state.profit)})
