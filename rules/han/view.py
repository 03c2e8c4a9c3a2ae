"""What one seat (or a spectator) may see of a Han state: the one place hidden data is cut.

Hidden while the game runs: the other seats' hands (only their sizes are shown), the pile's
order and contents (only its size), the seed and the RNG counter (never shown, not even at
the end: the service reveals the seed). After the end every hand and the pile are shown
(issue 3: "After the game ends everything is public").
"""

from __future__ import annotations

from rules.han.board import get_board
from rules.han.scoring import rank_points
from rules.han.state import KIND_NAMES, PHASE_NAMES, HanState


def build_view(state: HanState, seat: int | None, result: dict | None, *,
               reveal: bool = False) -> dict:
    """The view of ``seat`` (None: a spectator). ``reveal``: every hand and the pile as
    well, as after the end (``HanEngine.full_view``, for an ended match's pictures)."""
    board = state.board
    n = state.players
    spaces = {}
    for index, sid in enumerate(board.space_ids):
        kind = state.space_kind[index]
        spaces[sid] = (
            None if kind == 0 else {"kind": KIND_NAMES[kind], "seat": state.space_owner[index]}
        )
    emissaries = {}
    market_emissaries = {}
    for p, pid in enumerate(board.province_ids):
        emissaries[pid] = state.emissaries[p * n : p * n + n]
        market_emissaries[pid] = state.market_emissaries[p * n : p * n + n]
    view = {
        "game": "han",
        "map": state.map_id,
        "variant": state.variant,
        "players": n,
        "seat": seat,
        "turn": None if state.over else state.turn,
        "phase": None if state.over else PHASE_NAMES[state.phase],
        "emperor": state.emperor,
        "hand_sizes": [len(h) for h in state.hands],
        "pile_size": len(state.pile),
        "display": state.display[:],
        "discard": state.discard[:],
        "board": {
            "spaces": spaces,
            "emissaries": emissaries,
            "market_emissaries": market_emissaries,
            "scored": [pid for p, pid in enumerate(board.province_ids) if state.scored[p]],
        },
        "scores": state.scores[:],
        "supply": [
            {
                "houses": state.houses[s],
                "emissaries": state.emissary_supply[s],
                "markers": state.markers[s],
            }
            for s in range(n)
        ],
        "depletions": state.depletions,
        "final_round": state.final_round,
        "last_seat": state.last_seat,
        "game_over": state.over,
        "end_reason": state.end_reason,
    }
    view["knowledge"] = {
        # what everyone knows from the history (README "Public knowledge")
        "in_hand": [known[:] for known in state.known],
        "pile_may_hold": None if state.pile_known is None else state.pile_known[:],
        "reshuffle": _reshuffle_facts(state),
    }
    if seat is not None and 0 <= seat < n:
        view["hand"] = state.hands[seat][:]
        view["knowledge"]["my_pile_draws"] = state.pile_draws[seat][:]
        if state.hands_then is not None:
            view["knowledge"]["my_hand_at_reshuffle"] = state.hands_then[seat][:]
    if state.over or reveal:
        view["hands"] = [h[:] for h in state.hands]
        view["pile"] = state.pile[:]  # its top is its last card
    if state.over:
        view["result"] = result
    return view


def _reshuffle_facts(state: HanState) -> dict | None:
    """What everyone saw of the reshuffle and since (README "Public knowledge"): the old
    discard pile, the hands' union and sizes then (the old pile was empty, so every other
    card was in a hand or on the display), and each seat's draws and plays since."""
    if state.since is None:
        return None
    order = state.board.color_index.__getitem__
    return {
        "old_discard": state.reshuffled[:],
        "hands_union": sorted((card for hand in state.hands_then for card in hand), key=order),
        "hand_sizes": [len(hand) for hand in state.hands_then],
        "in_hand": [known[:] for known in state.known_then],
        "since": [steps[:] for steps in state.since],
    }


def move_value_from_view(view: dict, seat: int, move: dict) -> int:
    """Points ``seat`` would score at once from the provinces ``move`` completes (ruling H6),
    judged only from the public board in ``view``. Emissaries, discards and draws score 0
    now; malformed moves are worth 0 (``apply`` is the judge of legality)."""
    if not isinstance(move, dict) or move.get("type") != "place":
        return 0
    try:
        board = get_board(view["map"])
        n = view["players"]
        occupant = dict(view["board"]["spaces"])
        for piece in move.get("pieces", []):
            kind = piece.get("kind")
            if kind in ("house", "fortification", "market_place"):
                occupant[piece["space"]] = {"kind": kind, "seat": seat}
    except (KeyError, TypeError, AttributeError):
        return 0
    touched = set()
    for piece in move.get("pieces", []):
        if isinstance(piece, dict) and piece.get("space") in board.space_index:
            touched.update(board.space_provinces[board.space_index[piece["space"]]])
    scored = set(view["board"]["scored"])
    total = 0
    for p in touched:
        pid = board.province_ids[p]
        if pid in scored:
            continue
        cells = [occupant.get(board.space_ids[s]) for s in board.province_spaces[p]]
        if any(c is None for c in cells):
            continue
        counts = [0] * n
        fortified = False
        for cell in cells:
            if cell["kind"] != "market_place":
                counts[cell["seat"]] += 1
                if cell["seat"] == seat and cell["kind"] == "fortification":
                    fortified = True
        points = rank_points(counts)[seat]
        total += points * 2 if fortified else points
    return total
