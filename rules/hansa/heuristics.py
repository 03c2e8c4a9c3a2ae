"""A quick estimate of what a move is worth to the seat making it, from that seat's view
only (what the greedy bot maximises).

The estimate is the change in the seat's profit if the round were scored right now (city
ranks at the current prosperity plus luxury colours), plus small rough bonuses for what
does not score at once: a card taken into hand, a face-down card for Parliament.
"""

from __future__ import annotations

from rules.hansa import flow, scoring
from rules.hansa.data import HansaData
from rules.hansa.state import FINAL_CARD, KEEP, OVER, TURNS, HansaState

HAND_CARD_WEIGHT = 0.25  # a card in hand is worth something later, not now
PARLIAMENT_WEIGHT = 1.0  # each point of face-down trade power, very roughly
KEEP_WEIGHT = 0.5
STORED_PIECE_WEIGHT = 0.5  # a stored piece counts again in later rounds (rulings Q8, Q10)


def _known_cards(view: dict, seat: int) -> dict[str, dict]:
    """Cards this seat can see: its hand and every card on the board."""
    known: dict[str, dict] = {}
    own = view["seats"][seat]
    for card in own.get("hand", []):
        known[card["id"]] = card
    for row in view["rows"].values():
        for space in row:
            known[space["card"]["id"]] = dict(space["card"], piece=space["piece"])
    return known


def _snapshot(data: HansaData, view: dict) -> tuple[list[list[int]], list[int], list[list[int]]]:
    """(totals[city][seat], prosperity index per city, pieces[seat][colour])."""
    cities = data.cities
    players = view["players"]
    totals = [[0] * players for _ in cities]
    pieces = []
    for entry in view["seats"]:
        counts = [entry["pieces"].get(colour, 0) for colour in data.colours]
        pieces.append(counts)
        for city in range(len(cities)):
            totals[city][entry["seat"]] += counts[city]
        for card in entry["face_up"]:
            totals[data.city_index[card["city"]]][entry["seat"]] += card["trade_power"]
    prosperity = [view["prosperity"][name]["index"] for name in cities]
    return totals, prosperity, pieces


def _round_profit(data: HansaData, seat: int, totals, prosperity, my_pieces) -> int:
    profit = 0
    for city, index in enumerate(prosperity):
        profit += scoring.city_profits(data.track[index], totals[city])[seat]
    return profit + scoring.luxury_profit(data, my_pieces)


def estimate_move_value(data: HansaData, view: dict, seat: int, move: dict) -> float:
    return estimate_move_values(data, view, seat, [move])[0]


def estimate_move_values(data: HansaData, view: dict, seat: int,
                         moves: list[dict]) -> list[float]:
    """``estimate_move_value`` of each move. What the seat knows, the board's snapshot and
    the profit before any move depend on the view only: worked out once, and each move
    is judged on its own copy of the snapshot."""
    known = _known_cards(view, seat)
    totals, prosperity, pieces = _snapshot(data, view)
    before = _round_profit(data, seat, totals, prosperity, pieces[seat])
    return [
        _move_value(data, seat, move, known, [row[:] for row in totals], prosperity[:],
                    pieces[seat], before) if isinstance(move, dict) else 0.0
        for move in moves
    ]


def _move_value(data: HansaData, seat: int, move: dict, known: dict[str, dict],
                totals: list[list[int]], prosperity: list[int], pieces_before: list[int],
                before: int) -> float:
    """One move's estimate on ``totals`` and ``prosperity``, this move's own copies."""
    my_pieces = list(pieces_before)
    bonus = 0.0
    move_type = move.get("type")

    def play_face_up(card_id: str) -> None:
        card = known.get(card_id)
        if card is not None:
            totals[data.city_index[card["city"]]][seat] += card["trade_power"]

    def take(card_id: str | None) -> float:
        card = known.get(card_id) if card_id else None
        if card is None:
            return 0.0
        if card.get("piece"):
            colour = data.colour_index[card["piece"]]
            totals[colour][seat] += 1
            my_pieces[colour] += 1
        return HAND_CARD_WEIGHT * card["trade_power"]

    if move_type == "trade":
        play_face_up(move.get("card"))
        bonus += take(move.get("take"))
    elif move_type == "parliament":
        card = known.get(move.get("card"))
        if card is not None:
            bonus += PARLIAMENT_WEIGHT * card["trade_power"]
        city = data.city_index.get(move.get("city"))
        if city is not None and move.get("direction") in (1, -1):
            # ruling Q3: the marker stops at either end of the track
            prosperity[city] = min(max(prosperity[city] + move["direction"], 0),
                                   len(data.track) - 1)
        bonus += take(move.get("take"))
    elif move_type == "final_card":
        if move.get("face") == "up":
            play_face_up(move.get("card"))
        else:
            card = known.get(move.get("card"))
            bonus += PARLIAMENT_WEIGHT * card["trade_power"] if card else 0.0
    elif move_type == "store":
        kept = move.get("pieces") or {}
        for colour, owned in enumerate(pieces_before):
            new = kept.get(data.colours[colour], 0)
            totals[colour][seat] += new - owned
            my_pieces[colour] = new
            # keeping fewer than allowed is legal (Q10) but never better
            bonus += STORED_PIECE_WEIGHT * new
    elif move_type == "keep":
        chosen = [known[cid] for cid in move.get("cards", []) if cid in known]
        return KEEP_WEIGHT * sum(
            card["trade_power"] + (1 if card["kind"] == "ship" else 0) for card in chosen
        )
    else:
        return 0.0
    after = _round_profit(data, seat, totals, prosperity, my_pieces)
    return float(after - before) + bonus


def estimate_scores(data: HansaData, state: HansaState) -> list[float]:
    """Each seat's profit if the game went on as the board stands: every round still to be
    scored pays what the board would pay now (face-up cards and pieces stay in the Kontor,
    so they count in each later round too), then the final scoring (Parliament, Golden
    Ship, notable persons), all on a copy. For search rollouts cut short; on a finished
    game it is the final scores."""
    if state.phase == OVER:
        return [float(p) for p in state.profit]
    probe = state.copy()
    rounds_left = data.rounds - probe.round  # rounds after this one
    if probe.phase in (KEEP, TURNS, FINAL_CARD):
        rounds_left += 1  # this round is not scored yet
    if rounds_left:
        before = list(probe.profit)
        flow.score_round(probe, data, [])
        gained = [after - was for after, was in zip(probe.profit, before, strict=True)]
        probe.profit = [was + gain * rounds_left
                        for was, gain in zip(before, gained, strict=True)]
    flow.final_scoring(probe, data, [])
    return [float(p) for p in probe.profit]
