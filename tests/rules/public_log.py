"""An independent reader of the public move log: is a full state a world one seat could be in?

Written apart from the engines' ``knowledge`` code (it never reads a view's ``knowledge``
nor imports rules/*/determinize.py): it replays what the seat saw, ply by ply, and
decides whether a full state (a ``sample_state`` deal, or any other) is consistent with it.

What the seat saw (``SeatLog``): its first view, then per ply the mover, the move as the
seat may read it (``redact_move``), the events as it may read them (``redact_event``) and
its view after. A state is consistent when

- its view for the seat equals the seat's last view (``knowledge`` aside: that is what is
  being checked, not a given);
- every card of the game is in exactly one place;
- Hansa: each other seat's hidden cards are the harbour cards it took and has not played
  face up, and starting cards (normal cards the seat never saw anywhere); its face-down
  cards can be matched to its face-down plays, each to a card it held then (a starting
  card, or one taken at an earlier ply); the decks hold unseen cards of their kind, the
  normal one the seat's own returned starting cards that have not come out; other seats'
  pending keeps and final cards are cards of their hands;
- Han: before the reshuffle, each other hand holds the cards its seat took from the
  display and did not play since (per colour, a played colour uses a taken card first);
  after it, there are hands at the reshuffle (their union is public: every card but the
  old discard pile and the display) and colours for each other seat's face-down draws
  from the new pile such that every play since was made from cards held at that ply and
  each hand ends as the state's; the pile is what is left of the old discard pile.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from itertools import combinations_with_replacement


@dataclass
class SeatLog:
    seat: int
    first_view: dict
    plies: list[tuple[int, dict, list[dict], dict]] = field(default_factory=list)

    @property
    def last_view(self) -> dict:
        return self.plies[-1][3] if self.plies else self.first_view


def record(logs: list[SeatLog], engine, mover: int, move: dict, events: list[dict],
           after) -> None:
    """Append one ply, as each seat saw it, to ``logs``."""
    for log in logs:
        log.plies.append((mover, engine.redact_move(move, mover, log.seat),
                          [engine.redact_event(event, log.seat) for event in events],
                          engine.view(after, log.seat)))


def _public(view: dict) -> dict:
    return {key: value for key, value in view.items() if key != "knowledge"}


# -- Hansa ------------------------------------------------------------------------------------
def _hansa_seen(log: SeatLog) -> tuple[set[str], set[str]]:
    """The cards everyone saw (rows of each view, face-up cards) and those only the seat
    saw (its own hands and face-down cards)."""
    public: set[str] = set()
    own: set[str] = set()
    for view in [log.first_view, *(ply[3] for ply in log.plies)]:
        for row in view["rows"].values():
            public.update(slot["card"]["id"] for slot in row)
        for entry in view["seats"]:
            public.update(card["id"] for card in entry["face_up"])
            own.update(card["id"] for card in entry.get("hand", []))
            own.update(card["id"] for card in entry.get("face_down", []))
    return public, own


def _perfect_matching(plays: list[int], cards: list[str], usable) -> bool:
    """Kuhn's augmenting paths: can each play get its own card with ``usable(card, ply)``?"""
    owner: dict[str, int] = {}

    def augment(play: int, visited: set[str]) -> bool:
        for card in cards:
            if card in visited or not usable(card, plays[play]):
                continue
            visited.add(card)
            if card not in owner or augment(owner[card], visited):
                owner[card] = play
                return True
        return False

    return len(plays) == len(cards) and all(augment(p, set()) for p in range(len(plays)))


def hansa_consistent(engine, log: SeatLog, state) -> str | None:
    """None if ``state`` is a world ``log.seat`` could be in, else why not."""
    data = engine.data
    me = log.seat
    if _public(engine.view(state, me)) != _public(log.last_view):
        return "the state's view differs from the seat's"
    places = [card for row in state.rows for card in row]
    for cards in (*state.hands, *state.face_up, *state.face_down, state.normal_deck,
                  state.luxury_deck, state.removed):
        places.extend(cards)
    if sorted(places) != sorted(data.cards_in_game(state.players)):
        return "cards missing or doubled"
    public, own = _hansa_seen(log)
    seen = public | own
    taken_at: list[dict[str, int]] = [{} for _ in range(state.players)]
    face_up: list[set[str]] = [set() for _ in range(state.players)]
    face_down_plies: list[list[int]] = [[] for _ in range(state.players)]
    returned: set[str] = set()
    to_return: set[str] = set()
    own_first_hand = [card["id"] for card in log.first_view["seats"][me].get("hand", [])]
    for ply, (mover, move, events, _view) in enumerate(log.plies):
        if move["type"] in ("trade", "parliament") and move.get("take") is not None:
            taken_at[mover][move["take"]] = ply
        if move["type"] == "trade":
            face_up[mover].add(move["card"])
        elif move["type"] == "parliament":
            face_down_plies[mover].append(ply)
        elif move["type"] == "keep" and mover == me:
            to_return = set(own_first_hand) - set(move["cards"])
        for event in events:
            if event["type"] == "hands_kept":  # the returned cards go into the deck now
                returned = to_return
            elif event["type"] == "final_card" and event["face"] == "up":
                face_up[event["seat"]].add(event["card"])
            elif event["type"] == "final_card":
                face_down_plies[event["seat"]].append(ply)
    for s in range(state.players):
        if s == me:
            continue
        hidden = state.hands[s] + state.face_down[s]
        known = {card for card in taken_at[s] if card not in face_up[s]}
        if not known <= set(hidden):
            return f"seat {s}: a card it took is not in its hand or face-down pile"
        starting = [card for card in hidden if card not in known]
        for card in starting:
            if data.cards[card].luxury or card in seen:
                return f"seat {s}: {card} cannot be one of its starting cards"

        def usable(card: str, ply: int, s: int = s) -> bool:
            return card not in taken_at[s] or taken_at[s][card] < ply

        if not _perfect_matching(face_down_plies[s], state.face_down[s], usable):
            return f"seat {s}: its face-down cards do not fit its face-down plays"
        pending = state.pending.get(s)
        if pending and "card" in pending and pending["card"] not in state.hands[s]:
            return f"seat {s}: its pending final card is not in its hand"
        if pending and "cards" in pending and not set(pending["cards"]) <= set(state.hands[s]):
            return f"seat {s}: its pending keep is not in its hand"
    in_deck = returned - public  # the seat's returned cards that have not come out
    for deck, luxury in ((state.normal_deck, False), (state.luxury_deck, True)):
        if any((card in seen and card not in in_deck) or data.cards[card].luxury != luxury
               for card in deck):
            return "a deck holds a card it cannot hold"
    if not in_deck <= set(state.normal_deck):
        return "the seat's returned starting cards are not in the normal deck"
    return None


# -- Han ----------------------------------------------------------------------------------------
def _played(move: dict) -> list[str]:
    if move["type"] == "place":
        return list(move["cards"])
    if move["type"] == "discard":
        return [move["card"]]
    return []


@dataclass
class _HanSeatSinceReshuffle:
    size: int = 0  # hand size at the reshuffle
    known: Counter = field(default_factory=Counter)  # taken face up, not played since
    steps: list[tuple[str, object]] = field(default_factory=list)  # ("pile"|"took"|"played")


def _han_read(log: SeatLog, players: int):
    """Per seat: cards known in hand (greedy per colour); the reshuffle's facts if any."""
    known = [Counter() for _ in range(players)]
    sizes = list(log.first_view["hand_sizes"])
    reshuffle = None
    view_before = log.first_view
    for mover, move, events, view in log.plies:
        for card in _played(move):
            sizes[mover] -= 1
            if known[mover][card]:
                known[mover][card] -= 1
            if reshuffle:
                reshuffle["seats"][mover].steps.append(("played", card))
        if move["type"] == "draw":
            sizes[mover] += 1
            drawn_event = next(e for e in events if e["type"] == "drew")
            if move["from"] == "display":
                known[mover][drawn_event["card"]] += 1
            names = [e["type"] for e in events]
            if reshuffle:
                step = ("took", drawn_event["card"]) if move["from"] == "display" else (
                    ("pile", drawn_event.get("card")))
                reshuffle["seats"][mover].steps.append(step)
                for event in events:
                    if event["type"] == "display_refilled":
                        reshuffle["laid_out"] += Counter(event["cards"])
            elif "pile_reshuffled" in names:
                display = list(view_before["display"])
                if move["from"] == "display":
                    display.pop(move["index"])
                refill = next((e["cards"] for e in events if e["type"] == "display_refilled"),
                              [])
                from_old = view_before["pile_size"] - (move["from"] == "pile")
                old_part, new_part = refill[:from_old], refill[from_old:]
                reshuffle = {
                    "discard": Counter(view_before["discard"]),
                    "display": Counter(display) + Counter(old_part),
                    "laid_out": Counter(new_part),
                    "seats": [_HanSeatSinceReshuffle(size, +k)
                              for size, k in zip(sizes, known, strict=True)],
                    "my_hand": Counter(view.get("hand", [])),
                }
        view_before = view
    return known, reshuffle


def _deadline_feasible(h0: Counter, steps, colours, x: Counter) -> bool:
    """Can ``x`` (colours of the seat's face-down pile draws) be put on its draw slots so
    that every play is made from cards held then? Per colour, each shortfall is a demand
    due before the play that causes it; earliest deadline first onto the draw slots."""
    balance = Counter(h0)
    demands: list[int] = []  # step index before which a drawn card is needed
    needed = Counter()
    slots: list[int] = []
    for index, (kind, card) in enumerate(steps):
        if kind == "pile":
            slots.append(index)
        elif kind == "took":
            balance[card] += 1
        else:
            if balance[card] > 0:
                balance[card] -= 1
            else:
                demands.append(index)
                needed[card] += 1
    if any(needed[c] > x[c] for c in colours) or sum(x.values()) != len(slots):
        return False
    demands.sort()
    for k, deadline in enumerate(demands):
        if k >= len(slots) or slots[k] > deadline:
            return False
    return True


def han_consistent(engine, log: SeatLog, state) -> str | None:
    """None if ``state`` is a world ``log.seat`` could be in, else why not."""
    me = log.seat
    if _public(engine.view(state, me)) != _public(log.last_view):
        return "the state's view differs from the seat's"
    board = state.board
    deck = Counter({colour: count - board.cards_removed(state.players)
                    for colour, count in zip(board.colors, board.card_counts, strict=True)})
    total = Counter(state.discard) + Counter(state.display) + Counter(state.pile)
    for hand in state.hands:
        total += Counter(hand)
    if total != deck:
        return "cards missing or doubled"
    known, reshuffle = _han_read(log, state.players)
    others = [s for s in range(state.players) if s != me]
    if reshuffle is None:
        for s in others:
            if known[s] - Counter(state.hands[s]):
                return f"seat {s}: a card it took is not in its hand"
        return None
    own = reshuffle["seats"][me]
    my_new_draws = Counter(card for kind, card in own.steps if kind == "pile")
    drawn_by_others = (reshuffle["discard"] - reshuffle["laid_out"] - my_new_draws
                       - Counter(state.pile))
    if (Counter(state.pile) - (reshuffle["discard"] - reshuffle["laid_out"] - my_new_draws)
            or sum(drawn_by_others.values()) != sum(
                kind == "pile" for s in others for kind, _ in reshuffle["seats"][s].steps)):
        return "the pile holds a card the reshuffled pile cannot still hold"
    hands_then = deck - reshuffle["discard"] - reshuffle["display"] - reshuffle["my_hand"]
    colours = list(board.colors)
    return None if _han_assign(others, 0, hands_then, drawn_by_others, reshuffle, state,
                               colours) else "no hands at the reshuffle and draws fit the plays"


def _han_assign(others, i, hands_left: Counter, draws_left: Counter, reshuffle, state,
                colours) -> bool:
    """Depth first over the other seats' hands at the reshuffle."""
    if i == len(others):
        return not +hands_left and not +draws_left
    s = others[i]
    facts = reshuffle["seats"][s]
    steps = facts.steps
    took = Counter(card for kind, card in steps if kind == "took")
    played = Counter(card for kind, card in steps if kind == "played")
    free = facts.size - sum(facts.known.values())
    if free < 0 or facts.known - hands_left:
        return False
    for extra in combinations_with_replacement(colours, free):
        h0 = facts.known + Counter(extra)
        if h0 - hands_left:
            continue
        hand = Counter(state.hands[s])
        raw = {c: hand[c] + played[c] - took[c] - h0[c] for c in colours}
        if any(value < 0 for value in raw.values()):
            continue
        x = +Counter(raw)
        if x - draws_left:
            continue
        if _deadline_feasible(h0, steps, colours, x) and _han_assign(
                others, i + 1, hands_left - h0, draws_left - x, reshuffle, state, colours):
            return True
    return False
