"""The moves: checking a move dict (raising IllegalMove with a stable code), carrying it
out on a fresh state copy, and listing every legal move.

Move formats (examples in rules/hansa/README.md):

    {"type": "keep", "cards": ["lon-03", "bru-07"]}
    {"type": "trade", "card": "lon-03", "take": "ber-02"}
    {"type": "parliament", "card": "nov-01", "city": "Bergen", "direction": 1, "take": "lon-05"}
    {"type": "store", "pieces": {"red": 1, "blue": 0}}
    {"type": "choose_start", "seat": 2}
    {"type": "final_card", "card": "bru-04", "face": "up"}

Error messages name the problem but never a hidden card: only cards the mover can see.
"""

from __future__ import annotations

from itertools import combinations

from rules.engine import IllegalMove
from rules.hansa import board, flow
from rules.hansa.data import HansaData
from rules.hansa.state import (
    CHOOSE_START,
    FINAL_CARD,
    KEEP,
    OVER,
    SIMULTANEOUS_PHASES,
    STORE,
    TURNS,
    HansaState,
)
from rules.text import tr

MOVE_KEYS: dict[str, tuple[set[str], set[str]]] = {
    # type: (required keys, optional keys)
    "keep": ({"type", "cards"}, set()),
    "trade": ({"type", "card"}, {"take"}),
    "parliament": ({"type", "card", "city", "direction"}, {"take"}),
    "store": ({"type", "pieces"}, set()),
    "choose_start": ({"type", "seat"}, set()),
    "final_card": ({"type", "card", "face"}, set()),
}

PHASE_OF_MOVE = {
    "keep": KEEP,
    "trade": TURNS,
    "parliament": TURNS,
    "store": STORE,
    "choose_start": CHOOSE_START,
    "final_card": FINAL_CARD,
}

FACES = ("up", "down")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# -- who acts ------------------------------------------------------------------------------
def to_act(state: HansaState, data: HansaData) -> list[int]:
    if state.phase == TURNS:
        return [state.current]
    if state.phase == CHOOSE_START:
        return [state.chooser] if state.chooser is not None else []
    if state.phase in SIMULTANEOUS_PHASES:
        return flow.owing_seats(state, data)
    return []


# -- checking ------------------------------------------------------------------------------
def check_envelope(state: HansaState, data: HansaData, seat: object, move: object) -> str:
    """The checks every move shares; returns the move type."""
    if state.phase == OVER:
        raise IllegalMove("game_over", tr("the game is over"))
    if not _is_int(seat) or not 0 <= seat < state.players:
        raise IllegalMove("invalid_seat", tr("there is no seat {seat!r} in this game", seat=seat))
    if not isinstance(move, dict):
        raise IllegalMove("malformed_move", tr("a move must be a JSON object"))
    move_type = move.get("type")
    if not isinstance(move_type, str):
        raise IllegalMove("malformed_move", tr("a move needs a string field 'type'"))
    if move_type not in MOVE_KEYS:
        raise IllegalMove(
            "unknown_move_type",
            tr("unknown move type {move_type!r}; expected one of {types}",
               move_type=move_type, types=sorted(MOVE_KEYS)),
        )
    required, optional = MOVE_KEYS[move_type]
    missing = sorted(required - move.keys())
    if missing:
        raise IllegalMove("malformed_move", tr("{move_type} needs the field(s) {fields}",
                                                    move_type=move_type, fields=missing))
    unknown = sorted(move.keys() - required - optional)
    if unknown:
        raise IllegalMove("malformed_move", tr("{move_type} does not take the field(s) {fields}",
                                                    move_type=move_type, fields=unknown))
    if PHASE_OF_MOVE[move_type] != state.phase:
        raise IllegalMove(
            "wrong_phase",
            tr("a {move_type} move is not possible now: the game is in the {phase} phase",
               move_type=move_type, phase=state.phase),
        )
    if state.phase in SIMULTANEOUS_PHASES and seat in state.pending:
        raise IllegalMove("already_chosen", tr("this seat's choice is already made (ruling Q6)"))
    if seat not in to_act(state, data):
        if state.phase == CHOOSE_START:
            raise IllegalMove(
                "not_poorest_player", tr("only the player with the least profit names the start")
            )
        raise IllegalMove("not_your_turn", tr("seat {seat} is not to act now", seat=seat))
    return move_type


def _card_in_hand(state: HansaState, seat: int, card_id: object) -> str:
    if not isinstance(card_id, str):
        raise IllegalMove("malformed_move", tr("a card is given by its id, a string"))
    if card_id not in state.hands[seat]:
        raise IllegalMove("card_not_in_hand", tr("card {card!r} is not in your hand",
                                                        card=card_id))
    return card_id


def _check_take(
    state: HansaState, data: HansaData, move: dict, allowed: list[str]
) -> str | None:
    """``allowed`` are the cards this move may take; empty when no card can be taken."""
    take = move.get("take")
    if not allowed:
        if take is not None:
            raise IllegalMove("card_not_in_harbour", tr("no harbour holds a card to take (Q5)"))
        return None
    if take is None:
        raise IllegalMove("take_required", tr("name the harbour card to take ('take')"))
    if not isinstance(take, str):
        raise IllegalMove("malformed_move", tr("'take' is a card id, a string"))
    if take in allowed:
        return take
    if board.find_in_harbour(state, data, take) is None:
        raise IllegalMove("card_not_in_harbour", tr("card {card!r} is not in a harbour", card=take))
    raise IllegalMove(
        "wrong_harbour",
        tr("Trade with a City takes from the harbour of the played card's city while that city "
           "has a card (ruling Q5)"),
    )


def _check_keep(state: HansaState, data: HansaData, seat: int, move: dict) -> dict:
    cards = move["cards"]
    if not isinstance(cards, list) or not all(isinstance(c, str) for c in cards):
        raise IllegalMove("malformed_move", tr("'cards' is a list of card ids"))
    if len(cards) != data.hand_kept:
        raise IllegalMove("wrong_card_count",
                          tr("keep exactly {count} cards", count=data.hand_kept))
    if len(set(cards)) != len(cards):
        raise IllegalMove("duplicate_card", tr("a card is named twice"))
    for card_id in cards:
        _card_in_hand(state, seat, card_id)
    return {"cards": [cid for cid in state.hands[seat] if cid in cards]}


def _check_trade(
    state: HansaState, data: HansaData, seat: int, move: dict
) -> tuple[str, str | None]:
    card_id = _card_in_hand(state, seat, move["card"])
    allowed = board.trade_takes(state, data, data.cards[card_id].city)
    return card_id, _check_take(state, data, move, allowed)


def _check_parliament(
    state: HansaState, data: HansaData, seat: int, move: dict
) -> tuple[str, int, int, str | None]:
    card_id = _card_in_hand(state, seat, move["card"])
    city_name, direction = move["city"], move["direction"]
    if not isinstance(city_name, str) or city_name not in data.city_index:
        raise IllegalMove("unknown_city", tr("unknown city {city!r}; expected {cities}",
                                                city=city_name, cities=data.cities))
    if not _is_int(direction) or direction not in (1, -1):
        raise IllegalMove("invalid_direction", tr("'direction' is 1 (right) or -1 (left)"))
    city = data.city_index[city_name]
    target = state.prosperity[city] + direction
    if not 0 <= target < len(data.track):
        raise IllegalMove(
            "prosperity_cannot_move",
            tr("{city}'s prosperity marker is at the end of the track (ruling Q3)", city=city_name),
        )
    allowed = board.all_harbour_cards(state, data)
    return card_id, city, direction, _check_take(state, data, move, allowed)


def _check_store(state: HansaState, data: HansaData, seat: int, move: dict) -> dict:
    pieces = move["pieces"]
    if not isinstance(pieces, dict):
        raise IllegalMove("malformed_move", tr("'pieces' maps colours to numbers of pieces"))
    counts = [0] * len(data.colours)
    for colour, count in pieces.items():
        if colour not in data.colour_index:
            raise IllegalMove(
                "unknown_colour", tr("unknown colour {colour!r}; expected {colours}", colour=colour,
                                     colours=data.colours)
            )
        if not _is_int(count) or count < 0:
            raise IllegalMove("malformed_move", tr("the count for {colour} must be an integer >= 0",
                                                    colour=colour))
        counts[data.colour_index[colour]] = count
    owned = state.pieces[seat]
    for colour, count in enumerate(counts):
        if count > owned[colour]:
            raise IllegalMove(
                "not_enough_pieces",
                tr("you have {owned} {colour} piece(s), not {count}", owned=owned[colour],
                   colour=data.colours[colour], count=count),
            )
    keep = flow.storage_allowance(state, data, seat)
    if sum(counts) > keep:
        raise IllegalMove(
            "too_many_pieces",
            tr("you may store at most {keep} piece(s): one per face-up trade ship (ruling Q10)",
               keep=keep),
        )
    # fewer is allowed: ruling Q10 says "at most", and earlier pieces may be given up
    return {"pieces": counts}


def _check_choose_start(state: HansaState, move: dict) -> int:
    target = move["seat"]
    if not _is_int(target) or not 0 <= target < state.players:
        raise IllegalMove("invalid_seat", tr("there is no seat {seat!r} in this game", seat=target))
    return target


def _check_final_card(state: HansaState, seat: int, move: dict) -> dict:
    card_id = _card_in_hand(state, seat, move["card"])
    if move["face"] not in FACES:
        raise IllegalMove("invalid_face", tr("'face' is 'up' or 'down'"))
    return {"card": card_id, "face": move["face"]}


# -- carrying out --------------------------------------------------------------------------
def apply_move(state: HansaState, data: HansaData, seat: int, move: dict) -> list[dict]:
    """Check ``move`` fully, then carry it out on ``state`` (a copy the caller owns)."""
    move_type = check_envelope(state, data, seat, move)
    events: list[dict] = []

    if move_type == "trade":
        card_id, take = _check_trade(state, data, seat, move)
        state.hands[seat].remove(card_id)
        state.face_up[seat].append(card_id)
        state.forget(seat, card_id)
        events.append({"type": "traded", "seat": seat, "card": card_id,
                       "city": data.cities[data.cards[card_id].city]})
        if take is not None:
            board.take_card(state, data, seat, take, events)
        flow.end_turn(state, data, events)

    elif move_type == "parliament":
        card_id, city, direction, take = _check_parliament(state, data, seat, move)
        state.hands[seat].remove(card_id)
        state.face_down[seat].append(card_id)
        state.conceal(seat)
        before, after = board.move_marker(state, data, city, direction)
        events.append({"type": "attended_parliament", "seat": seat})
        events.append(board.prosperity_event(data, city, before, after, "parliament"))
        if take is not None:
            board.take_card(state, data, seat, take, events)
        flow.end_turn(state, data, events)

    elif move_type == "choose_start":
        flow.choose_start(state, data, _check_choose_start(state, move), events)

    else:  # the simultaneous choices: kept secret until every seat has chosen (ruling Q6)
        if move_type == "keep":
            choice = _check_keep(state, data, seat, move)
        elif move_type == "store":
            choice = _check_store(state, data, seat, move)
        else:
            choice = _check_final_card(state, seat, move)
        state.pending[seat] = choice
        # the move itself is the chooser's secret until resolved: redact_event strips it
        events.append({"type": "choice_made", "seat": seat, "choice": move_type,
                       "move": dict(move)})
        if not flow.owing_seats(state, data):
            if move_type == "keep":
                flow.resolve_keep(state, data, events)
            elif move_type == "store":
                flow.resolve_storage(state, data, events)
            else:
                flow.resolve_final_card(state, data, events)
    return events


# -- listing -------------------------------------------------------------------------------
def parliament_steps(state: HansaState, data: HansaData) -> list[tuple[int, int]]:
    """The (city index, direction) pairs a Parliament card may move now: every city's
    marker one step down or up, never off the track (ruling Q3)."""
    last = len(data.track) - 1
    return [(city, direction) for city, index in enumerate(state.prosperity)
            for direction in (-1, 1) if 0 <= index + direction <= last]


def legal_moves(state: HansaState, data: HansaData, seat: int) -> list[dict]:
    if seat not in to_act(state, data):
        return []
    hand = state.hands[seat]
    if state.phase == TURNS:
        moves: list[dict] = []
        any_harbour = board.all_harbour_cards(state, data)
        takes_any: list[str | None] = list(any_harbour) or [None]
        for card_id in hand:
            city = data.cards[card_id].city
            takes = board.trade_takes(state, data, city) or [None]
            for take in takes:
                moves.append({"type": "trade", "card": card_id, "take": take})
        steps = parliament_steps(state, data)
        for card_id in hand:
            for city, direction in steps:
                for take in takes_any:
                    moves.append({
                        "type": "parliament",
                        "card": card_id,
                        "city": data.cities[city],
                        "direction": direction,
                        "take": take,
                    })
        return moves
    if state.phase == KEEP:
        return [
            {"type": "keep", "cards": list(cards)}
            for cards in combinations(hand, data.hand_kept)
        ]
    if state.phase == FINAL_CARD:
        return [
            {"type": "final_card", "card": card_id, "face": face}
            for card_id in hand
            for face in FACES
        ]
    if state.phase == STORE:
        keep = flow.storage_allowance(state, data, seat)
        return [
            {"type": "store", "pieces": {data.colours[c]: n for c, n in enumerate(counts)}}
            for counts in _store_options(state.pieces[seat], keep)
        ]
    if state.phase == CHOOSE_START:
        return [{"type": "choose_start", "seat": target} for target in range(state.players)]
    return []


def playout_move(state: HansaState, data: HansaData, seat: int, rng) -> dict:
    """A random legal move for search rollouts (``Engine.playout_move``). During the turns
    it draws a hand card, then Trade or Parliament, one as likely as the other, then the
    rest, without listing every move. Uniform over ``legal_moves`` would attend Parliament
    almost always (each card has dozens of Parliament variants and one or two Trades), and
    such playouts judged positions worse: four-player games against greedy went from 42%
    to about 50% won (60 games each). Other phases choose among their few legal moves."""
    if state.phase != TURNS or not state.hands[seat]:
        options = legal_moves(state, data, seat)
        return options[rng.randbelow(len(options))]
    hand = state.hands[seat]
    card_id = hand[rng.randbelow(len(hand))]
    if rng.randbelow(2):
        takes = board.trade_takes(state, data, data.cards[card_id].city)
        take = takes[rng.randbelow(len(takes))] if takes else None
        return {"type": "trade", "card": card_id, "take": take}
    steps = parliament_steps(state, data)
    city, direction = steps[rng.randbelow(len(steps))]
    takes = board.all_harbour_cards(state, data)
    take = takes[rng.randbelow(len(takes))] if takes else None
    return {"type": "parliament", "card": card_id, "city": data.cities[city],
            "direction": direction, "take": take}


def _store_options(owned: list[int], keep: int) -> list[list[int]]:
    """Every way to keep at most ``keep`` pieces out of ``owned`` (per colour), ruling Q10;
    the fullest ways come first."""
    options: list[list[int]] = []

    def extend(prefix: list[int], colour: int, left: int) -> None:
        if colour == len(owned):
            options.append(prefix)
            return
        for count in range(min(owned[colour], left), -1, -1):
            extend(prefix + [count], colour + 1, left - count)

    extend([], 0, keep)
    options.sort(key=sum, reverse=True)  # stable: within a size, the order above
    return options
