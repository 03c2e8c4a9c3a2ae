"""Building Queen of Hansa states for tests: a real set-up, then the pieces a test needs
moved into place (each card is first taken out of wherever it was, so no card is ever in
two places)."""

from __future__ import annotations

from rules import get_engine
from rules.hansa.state import TURNS, HansaState


def engine():
    return get_engine("hansa")


def data():
    return engine().data


def colour(name: str) -> int:
    return data().colour_index[name]


def city(name: str) -> int:
    return data().city_index[name]


def track_index(label: int) -> int:
    return [space.label for space in data().track].index(label)


def start_game(players: int = 4, seed: str = "test-seed") -> HansaState:
    """A game right after every seat kept its first offered pair of cards."""
    eng = engine()
    state = eng.setup(players, {}, seed)
    for seat in list(eng.to_act(state)):
        state, _ = eng.apply(state, seat, eng.legal_moves(state, seat)[0])
    assert state.phase == TURNS
    return state


def lift(state: HansaState, card_id: str) -> None:
    """Take a card out of every place it could be."""
    for cards in (
        state.rows + state.hands + state.face_up + state.face_down
        + [state.normal_deck, state.luxury_deck, state.removed]
    ):
        if card_id in cards:
            cards.remove(card_id)
    state.row_pieces.pop(card_id, None)


def set_row(state: HansaState, city_name: str, card_ids: list[str],
            pieces: dict[str, str] | None = None) -> None:
    """Make a city's row exactly ``card_ids`` (harbour first); the row's old cards go to
    the bottom of their decks. ``pieces`` maps a card id to a piece colour."""
    _replace_cards(state, state.rows[city(city_name)], card_ids)
    for card_id, piece in (pieces or {}).items():
        state.row_pieces[card_id] = colour(piece)


def set_hand(state: HansaState, seat: int, card_ids: list[str]) -> None:
    _replace_cards(state, state.hands[seat], card_ids)


def _replace_cards(state: HansaState, place: list[str], card_ids: list[str]) -> None:
    """Put the cards now in ``place`` at the bottom of their decks, then move ``card_ids``
    (from wherever they are) into ``place``."""
    d = data()
    for old in list(place):
        lift(state, old)
        (state.luxury_deck if d.cards[old].luxury else state.normal_deck).append(old)
    for card_id in card_ids:
        lift(state, card_id)
        place.append(card_id)


def give_face_up(state: HansaState, seat: int, card_ids: list[str]) -> None:
    for card_id in card_ids:
        lift(state, card_id)
        state.face_up[seat].append(card_id)


def give_face_down(state: HansaState, seat: int, card_ids: list[str]) -> None:
    for card_id in card_ids:
        lift(state, card_id)
        state.face_down[seat].append(card_id)


def set_pieces(state: HansaState, seat: int, counts: dict[str, int],
               stored: dict[str, int] | None = None) -> None:
    d = data()
    state.pieces[seat] = [counts.get(name, 0) for name in d.colours]
    state.stored[seat] = [(stored or {}).get(name, 0) for name in d.colours]


def cards_where(**fields) -> list[str]:
    """Card ids (in file order) whose data matches every field, e.g. kind="ship"."""
    d = data()
    found = []
    for card_id in d.card_order:
        card = d.cards[card_id]
        if all(
            (d.cities[card.city] if key == "city" else getattr(card, key)) == value
            for key, value in fields.items()
        ):
            found.append(card_id)
    return found


def play_random(eng, state, rng, max_steps: int = 1000):
    """Random legal play to the end; returns (final state, list of (seat, move))."""
    log = []
    for _ in range(max_steps):
        if eng.is_over(state):
            return state, log
        seats = eng.to_act(state)
        seat = seats[rng.randbelow(len(seats))]
        options = eng.legal_moves(state, seat)
        move = options[rng.randbelow(len(options))]
        state, _ = eng.apply(state, seat, move)
        log.append((seat, move))
    raise AssertionError("random play did not end")
