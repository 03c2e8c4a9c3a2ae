"""Han's turn flow after an action: drawing up to the hand size (ruling H9), the display's
refill, the pile's depletion and reshuffle (ruling H10), the turn's end, a province's
scoring (rulings H5, H6) and the game's end (rulings H10, H11). rules/han/engine.py
checks a move and applies its action, then hands the new state (a fresh copy) to these.
"""

from __future__ import annotations

from rules.han.scoring import final_result, province_points
from rules.han.state import DRAWING, PLACING, HanState

HAND_SIZE = 3


def after_action(state: HanState, seat: int, events: list[dict]) -> None:
    if state.final_round or len(state.hands[seat]) >= HAND_SIZE:
        # final round: no drawing (rulebook "End of the Game"; ruling H10)
        end_turn(state, events)
    else:
        state.phase = DRAWING


def refill_display(state: HanState, events: list[dict]) -> None:
    added = []
    size = state.board.display_size
    while len(state.display) < size and state.pile and not state.final_round:
        card = state.pile.pop()
        if state.pile_known is not None:  # laid out face up: no longer possibly unseen
            state.pile_known.remove(card)
        state.display.append(card)
        added.append(card)
        if not state.pile:
            deplete(state, events)
    if added:
        events.append({"type": "display_refilled", "cards": added, "display": state.display[:]})


def deplete(state: HanState, events: list[dict]) -> None:
    """Ruling H10: reshuffle once; the second time the game ends after this round."""
    state.depletions += 1
    if state.depletions == 1:
        state.pile = state.discard
        state.discard = []
        # the pile is now exactly the old discard pile, whose cards everyone saw
        state.pile_known = sorted(state.pile, key=state.board.color_index.__getitem__)
        # every other card is in a hand or on the display now: the hands' union is
        # public, and what each seat does from here on narrows its share
        state.reshuffled = state.pile_known[:]
        state.hands_then = [hand[:] for hand in state.hands]
        state.known_then = [known[:] for known in state.known]
        state.since = [[] for _ in range(state.players)]
        state.rng.shuffle(state.pile)
        events.append({"type": "pile_reshuffled", "size": len(state.pile)})
        if not state.pile:
            deplete(state, events)  # nothing to reshuffle: it ran out again
        return
    state.final_round = True
    state.last_seat = (state.emperor - 1) % state.players
    events.append({"type": "final_round", "last_seat": state.last_seat})


def end_turn(state: HanState, events: list[dict]) -> None:
    if state.final_round and state.turn == state.last_seat:
        end_game(state, "pile_depleted", events)
        return
    state.turn = (state.turn + 1) % state.players
    state.phase = PLACING
    events.append({"type": "turn", "seat": state.turn})


def end_game(state: HanState, reason: str, events: list[dict]) -> None:
    state.over = True
    state.end_reason = reason
    result = final_result(state)
    events.append(
        {
            "type": "game_over",
            "reason": reason,
            "scores": result["scores"],
            "winners": result["winners"],
        }
    )


def score_province(state: HanState, province: int, events: list[dict]) -> None:
    """House scoring the moment a province fills (rulings H5, H6)."""
    n = state.players
    points = province_points(state, province)
    state.scored[province] = True
    for seat, pts in enumerate(points):
        state.province_points[province * n + seat] = pts
        state.scores[seat] += pts
    events.append(
        {
            "type": "province_scored",
            "province": state.board.province_ids[province],
            "points": points,
            "scores": state.scores[:],
        }
    )
