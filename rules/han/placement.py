"""Rule A, placing pieces: validating a place move and enumerating every legal one.

Move format (see rules/han/README.md)::

    {"type": "place", "cards": ["red", "green", "green"],
     "pieces": [{"kind": "house", "space": "wei-3"}, {"kind": "emissary", "province": "wei"}]}

Piece kinds: ``house`` (space), ``emissary`` (province), ``fortification`` (space: the marker
and the free house on it, 2 pieces: ruling V1), ``market_place`` (space: the marker and the
free emissary on it, 2 pieces: ruling V2). The engine itself finds how the cards pay for the
pieces (``rules.han.cards``); any order of ``cards`` is accepted. Pieces are placed in the
order listed (ruling H4); ``legal_moves`` lists each placement once, in canonical order:
houses and markers first by board space order, then emissaries, cards sorted by colour in
the board's card table order. Equivalent orders are accepted by ``apply`` when legal as
listed.
"""

from __future__ import annotations

from collections import Counter

from rules.engine import IllegalMove
from rules.han.board import FORTIFICATION, MARKET_PLACE
from rules.han.cards import MAX_CARDS, can_pay, payments
from rules.han.state import EMPTY, FORTIFIED_HOUSE, HOUSE, MARKET, HanState
from rules.text import tr

K_HOUSE = "house"
K_EMISSARY = "emissary"
PIECE_KINDS = (K_HOUSE, K_EMISSARY, FORTIFICATION, MARKET_PLACE)
MAX_PIECES = 2  # ruling H1


def _malformed(message: str) -> IllegalMove:
    return IllegalMove("malformed_move", message)


def parse_place(state: HanState, move: dict) -> tuple[list[str], list[tuple[str, int]]]:
    """Structure and ids only; returns (cards, [(kind, space or province index)])."""
    board = state.board
    extra = set(move) - {"type", "cards", "pieces"}
    if extra:
        raise _malformed(tr("unknown key(s) in place move: {keys}", keys=sorted(extra)))
    cards = move.get("cards")
    pieces = move.get("pieces")
    if not isinstance(cards, list) or not cards:
        raise _malformed(tr("'cards' must be a non-empty list of card colours"))
    if not isinstance(pieces, list) or not pieces:
        raise _malformed(tr("'pieces' must be a non-empty list of pieces"))
    for card in cards:
        if not isinstance(card, str):
            raise _malformed(tr("every card must be a colour name (string)"))
        if card not in board.color_index:
            raise IllegalMove(
                "unknown_card", tr("unknown card colour {card!r}", card=card),
                {"colours": list(board.colors)},
            )
    if len(cards) > MAX_CARDS:
        raise IllegalMove("too_many_cards", tr("at most {count} cards per turn (ruling H1)",
                                                 count=MAX_CARDS))
    parsed: list[tuple[str, int]] = []
    for piece in pieces:
        if not isinstance(piece, dict):
            raise _malformed(tr("every piece must be an object with 'kind'"))
        kind = piece.get("kind")
        if kind not in PIECE_KINDS:
            raise IllegalMove(
                "unknown_piece_kind", tr("unknown piece kind {kind!r}", kind=kind),
                {"kinds": list(PIECE_KINDS)},
            )
        where_key = "province" if kind == K_EMISSARY else "space"
        if set(piece) != {"kind", where_key}:
            raise _malformed(tr("a {kind} piece takes exactly the keys 'kind' and '{key}'",
                                 kind=kind, key=where_key))
        where = piece[where_key]
        if not isinstance(where, str):
            raise _malformed(tr("'{key}' must be an id string", key=where_key))
        if kind == K_EMISSARY:
            if where not in board.province_index:
                raise IllegalMove("unknown_province", tr("no province {where!r} on this map",
                                                                 where=where))
            parsed.append((kind, board.province_index[where]))
        else:
            if where not in board.space_index:
                raise IllegalMove("unknown_space", tr("no house space {where!r} on this map",
                                                              where=where))
            parsed.append((kind, board.space_index[where]))
    return cards, parsed


def _piece_provinces(state: HanState, kind: str, target: int) -> tuple[int, ...]:
    if kind == K_EMISSARY:
        return (target,)
    return state.board.space_provinces[target]


def _piece_units(state: HanState, kind: str, target: int) -> tuple[tuple[int, bool], ...]:
    board = state.board
    if kind == K_EMISSARY:
        return ((1 << board.province_color[target], True),)
    provinces = board.space_provinces[target]
    if kind == K_HOUSE:
        mask = 0
        for p in provinces:
            mask |= 1 << board.province_color[p]
        return ((mask, True),) * (2 if len(provinces) > 1 else 1)
    # fortification / market place: two cards of the province's own colour (V1, V2)
    own = 1 << board.province_color[provinces[0]]
    return ((own, False), (own, False))


def province_has_piece(state: HanState, province: int) -> bool:
    if state.province_filled[province]:
        return True
    n = state.players
    start = province * n
    return any(state.emissaries[start : start + n]) or any(
        state.market_emissaries[start : start + n]
    )


def emissary_limit(state: HanState, province: int) -> int:
    """Ruling H4: the largest number of houses any one player has in the province."""
    n = state.players
    return max(state.province_houses[province * n : province * n + n])


def check_place(state: HanState, seat: int, cards: list[str], pieces: list[tuple[str, int]]):
    """Every check that does not depend on the order of placement. Raises IllegalMove."""
    board = state.board
    hand = Counter(state.hands[seat])
    for colour, count in Counter(cards).items():
        if hand[colour] < count:
            raise IllegalMove("card_not_in_hand", tr("you do not hold {count} {colour} card(s)",
                                                         count=count, colour=colour))
    weight = sum(2 if kind in (FORTIFICATION, MARKET_PLACE) else 1 for kind, _ in pieces)
    if weight > MAX_PIECES:
        raise IllegalMove(
            "too_many_pieces",
            tr("at most 2 pieces per turn (a fortification or market place counts as 2: "
               "rulings H1, V1, V2)"),
        )
    for kind, target in pieces:
        if kind in (FORTIFICATION, MARKET_PLACE):
            if not state.variant or board.variant_kind != kind:
                raise IllegalMove("variant_not_enabled",
                                  tr("{kind} pieces are not part of this game", kind=kind))
            if board.space_is_border[target]:
                # ruling V1 for fortifications; for market places a choice of ours (README)
                code = "fortification_on_border" if kind == FORTIFICATION else "market_on_border"
                raise IllegalMove(
                    code, tr("a {kind} cannot go on border space {space}", kind=kind,
                             space=board.space_ids[target])
                )
    common = set(_piece_provinces(state, *pieces[0]))
    for piece in pieces[1:]:
        common &= set(_piece_provinces(state, *piece))
    if not common:
        raise IllegalMove(
            "different_provinces", tr("all pieces of a turn go into one province (ruling H1)")
        )
    per_province: Counter[int] = Counter()
    for kind, target in pieces:
        for p in _piece_provinces(state, kind, target):
            per_province[p] += 2 if kind in (FORTIFICATION, MARKET_PLACE) else 1
    for p, count in per_province.items():
        if count > 1 and not province_has_piece(state, p):
            raise IllegalMove(
                "empty_province_limit",
                tr("{province} held no piece at the start of the turn: "
                   "it takes only one piece (ruling H1)", province=board.province_ids[p]),
            )
    need_houses = sum(1 for kind, _ in pieces if kind in (K_HOUSE, FORTIFICATION))
    need_emissaries = sum(1 for kind, _ in pieces if kind in (K_EMISSARY, MARKET_PLACE))
    need_markers = sum(1 for kind, _ in pieces if kind in (FORTIFICATION, MARKET_PLACE))
    for what, need, have in (
        (tr("not enough houses left in your supply"), need_houses, state.houses[seat]),
        (tr("not enough emissaries left in your supply"), need_emissaries,
         state.emissary_supply[seat]),
        (tr("not enough markers left in your supply"), need_markers, state.markers[seat]),
    ):
        if need > have:
            raise IllegalMove("no_supply", what)
    units: list[tuple[int, bool]] = []
    for kind, target in pieces:
        units.extend(_piece_units(state, kind, target))
    colour_ids = tuple(sorted(board.color_index[c] for c in cards))
    if not can_pay(colour_ids, tuple(sorted(units))):
        border = next((t for k, t in pieces if k == K_HOUSE and board.space_is_border[t]), None)
        if border is not None:
            names = [board.colors[board.province_color[p]] for p in board.space_provinces[border]]
            raise IllegalMove(
                "border_needs_two_cards",
                tr("border space {space} needs two cards: one of each of its provinces' "
                   "colours ({colours}), or two of one of them (a wild pair may replace one; "
                   "rulings H2, H3), and every other piece its own card",
                   space=board.space_ids[border], colours=", ".join(names)),
            )
        raise IllegalMove(
            "cards_do_not_match",
            tr("the cards played do not pay exactly for these pieces (one card of the "
               "province's colour per piece, or a wild pair of another colour; two cards of the "
               "province's own colour for a fortification or market place; no spare cards)"),
        )


def place_piece(state: HanState, seat: int, kind: str, target: int, scored: list[int]) -> None:
    """Put one piece on the (copied) state, in move order (ruling H4). Provinces completed by
    it are appended to ``scored`` (ruling H6) and scored by the caller's helper."""
    board = state.board
    n = state.players
    if kind == K_EMISSARY:
        if state.emissary_supply[seat] <= 0:
            raise IllegalMove("no_supply", tr("no emissaries left in your supply"))
        limit = emissary_limit(state, target)
        start = target * n
        present = sum(state.emissaries[start : start + n])
        if present + 1 > limit:
            raise IllegalMove(
                "emissary_limit",
                tr("{province} allows at most {limit} emissaries on its dragon space (the "
                   "largest house count of one player there; ruling H4)",
                   province=board.province_ids[target], limit=limit),
                {"province": board.province_ids[target], "limit": limit, "present": present},
            )
        state.emissaries[start + seat] += 1
        state.emissary_supply[seat] -= 1
        return
    if state.space_kind[target] != EMPTY:
        raise IllegalMove("space_occupied", tr("space {space} is already occupied",
                                                 space=board.space_ids[target]))
    state.space_owner[target] = seat
    provinces = board.space_provinces[target]
    if kind == MARKET_PLACE:
        state.space_kind[target] = MARKET
        state.markers[seat] -= 1
        state.emissary_supply[seat] -= 1
        state.market_emissaries[provinces[0] * n + seat] += 1
    else:
        state.space_kind[target] = FORTIFIED_HOUSE if kind == FORTIFICATION else HOUSE
        state.houses[seat] -= 1
        if kind == FORTIFICATION:
            state.markers[seat] -= 1
    counts_as_house = kind != MARKET_PLACE
    completed = []
    for p in provinces:
        state.province_filled[p] += 1
        if counts_as_house:
            state.province_houses[p * n + seat] += 1
        if state.province_filled[p] == len(board.province_spaces[p]) and not state.scored[p]:
            completed.append(p)
    completed.sort(key=lambda p: board.province_scoring_key[p])
    scored.extend(completed)


def placement_possible(state: HanState) -> bool:
    """Ruling H11: could any player place any piece, whatever cards they held?"""
    board = state.board
    n = state.players
    any_free = any(kind == EMPTY for kind in state.space_kind)
    markers_in_play = state.variant
    for seat in range(n):
        if any_free and state.houses[seat] > 0:
            return True
        if state.emissary_supply[seat] > 0:
            for p in range(len(board.province_ids)):
                start = p * n
                if sum(state.emissaries[start : start + n]) < max(
                    state.province_houses[start : start + n]
                ):
                    return True
            if markers_in_play and state.markers[seat] > 0 and board.variant_kind == MARKET_PLACE:
                for p in range(len(board.province_ids)):
                    if province_has_piece(state, p) and any(
                        state.space_kind[s] == EMPTY for s in board.province_inner_spaces[p]
                    ):
                        return True
    return False


def _house(space: str) -> dict:
    return {"kind": K_HOUSE, "space": space}


def _emissary(province: str) -> dict:
    return {"kind": K_EMISSARY, "province": province}


def _offer(moves: list[dict], ways_to_pay: tuple, *pieces: dict) -> None:
    """Add one place move of ``pieces`` for each way of paying for them. Every move gets
    piece dicts of its own (the first takes the fresh ones it was given: this runs for every
    move ``legal_moves`` lists, so no copy is made that is not needed)."""
    fresh = True
    for cards in ways_to_pay:
        listed = list(pieces) if fresh else [piece.copy() for piece in pieces]
        moves.append({"type": "place", "cards": list(cards), "pieces": listed})
        fresh = False


def place_moves(state: HanState, seat: int) -> list[dict]:
    """Every legal place move for ``seat``, each placement and card set once (canonical)."""
    board = state.board
    hand = state.hands[seat]
    if not hand:
        return []
    n = state.players
    colours = board.colors
    hand_key = tuple(sorted(board.color_index[c] for c in hand))
    space_kind = state.space_kind
    space_ids = board.space_ids
    houses_left = state.houses[seat]
    emissaries_left = state.emissary_supply[seat]
    markers_left = state.markers[seat] if state.variant else 0
    variant_kind = board.variant_kind
    moves: list[dict] = []

    for p, pid in enumerate(board.province_ids):
        bit = 1 << board.province_color[p]
        one = ((bit, True),)
        pay_one = payments(hand_key, one, colours)
        nonempty = province_has_piece(state, p)
        pay_two = payments(hand_key, ((bit, True), (bit, True)), colours) if nonempty else ()
        if not pay_one and not pay_two and not nonempty:
            continue
        start = p * n
        limit = max(state.province_houses[start : start + n])
        own = state.province_houses[start + seat]
        present = sum(state.emissaries[start : start + n])
        free_inner = [s for s in board.province_inner_spaces[p] if space_kind[s] == EMPTY]
        free_names = [space_ids[s] for s in free_inner]
        limit_after_house = max(limit, own + 1)
        emissary_alone = emissaries_left >= 1 and present + 1 <= limit
        emissary_after_house = emissaries_left >= 1 and present + 1 <= limit_after_house

        if pay_one:
            if houses_left >= 1:
                for name in free_names:
                    _offer(moves, pay_one, _house(name))
            if emissary_alone:
                _offer(moves, pay_one, _emissary(pid))
        if pay_two:
            if houses_left >= 2:
                for i, first in enumerate(free_names):
                    for second in free_names[i + 1 :]:
                        _offer(moves, pay_two, _house(first), _house(second))
            if houses_left >= 1 and emissary_after_house:
                for name in free_names:
                    _offer(moves, pay_two, _house(name), _emissary(pid))
            if emissaries_left >= 2 and present + 2 <= limit:
                _offer(moves, pay_two, _emissary(pid), _emissary(pid))

        if nonempty and houses_left >= 1:
            # a border house plus one more piece in this province (rulings H1, H3)
            for border in board.province_border_spaces[p]:
                if space_kind[border] != EMPTY:
                    continue
                units = _piece_units(state, K_HOUSE, border) + one
                pay_border = payments(hand_key, units, colours)
                if not pay_border:
                    continue
                border_name = space_ids[border]
                if houses_left >= 2:
                    for s, name in zip(free_inner, free_names, strict=True):
                        first, second = (border_name, name) if border < s else (name, border_name)
                        _offer(moves, pay_border, _house(first), _house(second))
                if emissary_after_house:
                    _offer(moves, pay_border, _house(border_name), _emissary(pid))

        if markers_left >= 1 and nonempty and free_names:
            # rulings V1, V2: the marker and its free house / emissary are two pieces (so
            # never in a province empty at the start of the turn), paid by two cards of the
            # province's own colour (no wild pair); the market place's emissary ignores H4
            if variant_kind == FORTIFICATION:
                ready = houses_left >= 1
            else:
                ready = emissaries_left >= 1
            pay_marker = payments(hand_key, ((bit, False), (bit, False)), colours) if ready else ()
            for name in free_names:
                _offer(moves, pay_marker, {"kind": variant_kind, "space": name})

    if houses_left >= 1:
        # a border house alone: one piece in each of its provinces
        for border in board.border_spaces:
            if space_kind[border] != EMPTY:
                continue
            pay_border = payments(hand_key, _piece_units(state, K_HOUSE, border), colours)
            name = space_ids[border]
            _offer(moves, pay_border, _house(name))
    return moves
