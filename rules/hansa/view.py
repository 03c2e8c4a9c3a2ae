"""What one seat (or a spectator) may see: the only place hidden information is removed.

Hidden while the game runs: other seats' hands and face-down cards (their sizes are
public), the decks' contents and order (sizes public), pending simultaneous choices (only
who has chosen is public), and the card left in hand after the last round. The bag has no
order at all (each draw picks at random among the pieces left), and its contents by colour
are public: every piece that leaves it lands face up on a card and none ever returns.
The seed and the RNG counter are never in a view. After the end everything is public.
"""

from __future__ import annotations

from rules.hansa import flow, moves
from rules.hansa.data import HansaData
from rules.hansa.state import (
    CHOOSE_START,
    OVER,
    SIMULTANEOUS_PHASES,
    STORE,
    TURNS,
    HansaState,
    copy_breakdown,
)


def _cards(data: HansaData, card_ids: list[str]) -> list[dict]:
    return [data.cards[cid].to_public(data.cities) for cid in card_ids]


def _by_colour(data: HansaData, counts: list[int]) -> dict[str, int]:
    return {data.colours[c]: n for c, n in enumerate(counts)}


def choice_as_move(data: HansaData, phase: str, choice: dict) -> dict:
    """A pending choice written back as the move that made it."""
    if phase == STORE:
        return {"type": "store", "pieces": _by_colour(data, choice["pieces"])}
    if "cards" in choice:
        return {"type": "keep", "cards": list(choice["cards"])}
    return {"type": "final_card", "card": choice["card"], "face": choice["face"]}


def build_view(state: HansaState, data: HansaData, seat: int | None, result: dict | None, *,
               reveal: bool = False) -> dict:
    """The view of ``seat`` (None: a spectator). ``reveal``: every hand and face-down card
    as well, as after the end (``HansaEngine.full_view``, for an ended match's pictures)."""
    over = state.phase == OVER
    to_act = moves.to_act(state, data)
    change_order = data.change_order

    seats = []
    for s in range(state.players):
        ships = sum(1 for cid in state.face_up[s] if data.cards[cid].kind == "ship")
        entry = {
            "seat": s,
            "profit": state.profit[s],
            "hand_size": len(state.hands[s]),
            "face_up": _cards(data, state.face_up[s]),
            "face_down_count": len(state.face_down[s]),
            "pieces": _by_colour(data, state.pieces[s]),
            "stored": _by_colour(data, state.stored[s]),
            "face_up_ships": ships,
        }
        if over or reveal or s == seat:
            entry["hand"] = _cards(data, state.hands[s])
            entry["face_down"] = _cards(data, state.face_down[s])
        seats.append(entry)

    simultaneous = None
    if state.phase in SIMULTANEOUS_PHASES:
        simultaneous = {
            "choice": state.phase,
            "chosen": sorted(state.pending),
            "waiting_for": flow.owing_seats(state, data),
        }

    view = {
        "game": "hansa",
        "viewer": seat,
        "players": state.players,
        "round": state.round,
        "rounds": data.rounds,
        "phase": state.phase,
        "over": over,
        "to_act": to_act,
        "start_player": state.start,
        "current_seat": state.current if state.phase == TURNS else None,
        "turns_taken": state.turns_taken,
        "turns_per_player": data.turns_per_round[state.players],
        "chooser": state.chooser if state.phase == CHOOSE_START else None,
        "prosperity": {
            data.cities[city]: {
                "index": index,
                "label": data.track[index].label,
                "first": data.track[index].first,
                "second_multiplier": data.track[index].second_multiplier,
                "third_multiplier": data.track[index].third_multiplier,
            }
            for city, index in enumerate(state.prosperity)
        },
        "prosperity_track_length": len(data.track),
        "prosperity_changes_this_round": state.changes,
        "next_prosperity_change": (
            change_order[state.changes] if state.changes < len(change_order) else None
        ),
        "harbour_spaces": data.harbour_spaces,
        "spaces_per_city": data.spaces_per_city[state.players],
        "rows": {
            data.cities[city]: [
                {
                    "card": data.cards[cid].to_public(data.cities),
                    "piece": (
                        data.colours[state.row_pieces[cid]] if cid in state.row_pieces else None
                    ),
                }
                for cid in row
            ]
            for city, row in enumerate(state.rows)
        },
        "decks": {"normal": len(state.normal_deck), "luxury": len(state.luxury_deck)},
        "bag": {"count": sum(state.bag), "by_colour": _by_colour(data, state.bag)},
        "seats": seats,
        "simultaneous": simultaneous,
        "breakdown": [copy_breakdown(entry) for entry in state.breakdown],
    }
    view["knowledge"] = {
        # what everyone knows from the history (README "Public knowledge"), card ids
        "seats": [
            {"in_hand": list(state.known_in_hand[s]),
             "in_hand_or_face_down": list(state.known_hidden[s]),
             # per face-down card (in play order), those of them taken before it and
             # after the face-down card before it: it can only be one of those taken
             # earlier, or one of the seat's starting cards
             "taken_before_face_down": [list(block) for block in state.known_blocks[s]]}
            for s in range(state.players)
        ],
    }
    if seat is not None and 0 <= seat < state.players:
        # its own returned starting cards, while the deck holds them (a card leaves the
        # deck only face up, onto the board, where everyone sees it)
        deck = set(state.normal_deck)
        view["knowledge"]["returned_to_deck"] = [
            cid for cid in state.returned[seat] if cid in deck
        ]
    if seat is not None and seat in state.pending and state.phase in SIMULTANEOUS_PHASES:
        view["my_choice"] = choice_as_move(data, state.phase, state.pending[seat])
    if over:
        view["removed"] = _cards(data, state.removed)
        view["deck_contents"] = {
            "normal": list(state.normal_deck),
            "luxury": list(state.luxury_deck),
        }
        view["result"] = result
    return view
