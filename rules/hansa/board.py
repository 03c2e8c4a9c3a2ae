"""The city rows, the bag and the prosperity track: the mechanics every phase shares.

Functions here mutate the state they are given; the engine only ever hands them a fresh
copy. ``events`` lists collect public facts as they happen.
"""

from __future__ import annotations

from rules.hansa.data import HansaData
from rules.hansa.state import HansaState


def draw_piece(state: HansaState, data: HansaData) -> int | None:
    """Draw one luxury piece blindly from the bag, or None when it is empty.

    The bag has no order to hide: each draw picks a uniform random piece among those left
    (randbelow over the total, mapped onto the colours in city order)."""
    total = sum(state.bag)
    if total == 0:
        return None
    pick = state.rng.randbelow(total)
    for colour, count in enumerate(state.bag):
        if pick < count:
            state.bag[colour] -= 1
            return colour
        pick -= count
    raise AssertionError("bag draw out of range")  # unreachable: pick < total


def place_missing_pieces(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """Put a piece on every luxury card of the board that has none, in placement order
    (cities top to bottom, spaces left to right); cards that keep their piece are skipped."""
    for city, row in enumerate(state.rows):
        for card_id in row:
            if data.cards[card_id].luxury and card_id not in state.row_pieces:
                colour = draw_piece(state, data)
                if colour is None:
                    return
                state.row_pieces[card_id] = colour
                events.append({
                    "type": "piece_placed",
                    "city": data.cities[city],
                    "card": card_id,
                    "piece": data.colours[colour],
                })


def harbour_of(state: HansaState, data: HansaData, city: int) -> list[str]:
    return state.rows[city][: data.harbour_spaces]


def all_harbour_cards(state: HansaState, data: HansaData) -> list[str]:
    cards: list[str] = []
    for row in state.rows:
        cards.extend(row[: data.harbour_spaces])
    return cards


def trade_takes(state: HansaState, data: HansaData, city: int) -> list[str]:
    """Cards a Trade with a City in ``city`` may take (ruling Q5): that city's harbour, or
    any harbour when the city has no card at all, or nothing when every row is empty."""
    if state.rows[city]:
        return harbour_of(state, data, city)
    return all_harbour_cards(state, data)


def find_in_harbour(state: HansaState, data: HansaData, card_id: str) -> int | None:
    for city, row in enumerate(state.rows):
        if card_id in row[: data.harbour_spaces]:
            return city
    return None


def move_marker(state: HansaState, data: HansaData, city: int, steps: int) -> tuple[int, int]:
    """Move a prosperity marker, stopping at either end of the track (ruling Q3)."""
    before = state.prosperity[city]
    after = min(max(before + steps, 0), len(data.track) - 1)
    state.prosperity[city] = after
    return before, after


def prosperity_event(data: HansaData, city: int, before: int, after: int, cause: str) -> dict:
    return {
        "type": "prosperity_changed",
        "city": data.cities[city],
        "from": data.track[before].label,
        "to": data.track[after].label,
        "cause": cause,
    }


def take_card(
    state: HansaState, data: HansaData, seat: int, card_id: str, events: list[dict]
) -> None:
    """Move a harbour card to ``seat``'s hand, its luxury piece to the Kontor, slide the
    row left and trigger the change in prosperity if the sea just emptied."""
    city = find_in_harbour(state, data, card_id)  # the row it lies in, not its own city
    if city is None:
        raise AssertionError("take_card needs a harbour card")  # callers check first
    row = state.rows[city]
    sea_before = len(row) - data.harbour_spaces
    row.remove(card_id)  # later cards slide left with their pieces (they key by card id)
    state.hands[seat].append(card_id)
    state.known_in_hand[seat].append(card_id)  # taken in everyone's sight
    colour = state.row_pieces.pop(card_id, None)
    if colour is not None:
        state.pieces[seat][colour] += 1
    events.append({
        "type": "card_taken",
        "seat": seat,
        "card": card_id,
        "city": data.cities[city],
        "piece": None if colour is None else data.colours[colour],
    })
    # ruling Q9: the change happens when the last sea card slides into the harbour
    if sea_before == 1:
        order = state.changes
        state.changes += 1
        if order < len(data.change_order):
            before, after = move_marker(state, data, city, data.change_order[order])
            event = prosperity_event(data, city, before, after, "harbour")
            event["order"] = order + 1  # ruling Q4: 1st, 2nd, ... change of this round
            events.append(event)


def support_weakest(state: HansaState, data: HansaData, events: list[dict]) -> None:
    """Support of Allied Cities: every city tied for the lowest prosperity moves up 1."""
    lowest = min(state.prosperity)
    for city, index in enumerate(state.prosperity):
        if index == lowest:
            before, after = move_marker(state, data, city, 1)
            if after != before:
                events.append(prosperity_event(data, city, before, after, "support"))


def draw_cards(deck: list[str], count: int) -> list[str]:
    drawn = deck[:count]
    del deck[:count]
    return drawn


def lay_out(state: HansaState, data: HansaData, normal: int, luxury: int,
            events: list[dict]) -> None:
    """Take the given numbers of cards from the two decks, mix them, and fill the empty
    spaces from London's leftmost on; then put pieces on luxury cards in the same order.

    Short decks give what they have. Cards that find no empty space (only possible with
    other data) go back under their deck."""
    mixed = draw_cards(state.normal_deck, normal) + draw_cards(state.luxury_deck, luxury)
    state.rng.shuffle(mixed)
    capacity = data.spaces_per_city[state.players]
    for city, row in enumerate(state.rows):
        while len(row) < capacity and mixed:
            card_id = mixed.pop(0)
            row.append(card_id)
            events.append({
                "type": "card_placed",
                "city": data.cities[city],
                "card": card_id,
            })
    for card_id in mixed:
        (state.luxury_deck if data.cards[card_id].luxury else state.normal_deck).append(card_id)
    place_missing_pieces(state, data, events)
