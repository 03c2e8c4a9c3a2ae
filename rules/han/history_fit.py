"""Whether other hands and a pile fit what a seat knows of the game after the reshuffle.

At the reshuffle the old pile is empty, so every card not in the old discard pile (which
becomes the new pile) nor on the display is in a hand: the hands' union then is public
(the view's ``knowledge.reshuffle.hands_union``), each seat's share of it is not. Since then each
seat's draws (from the display: the colour is public; from the pile: face down), plays
and discards are public, in order. A deal of the other hands and the pile fits when there
are hands at the reshuffle (each holding at least the cards known in it then, together
the union less the viewer's own hand) and colours for each face-down draw (together the
cards of the old discard pile neither laid out since, nor drawn by the viewer, nor in the
pile) such that every seat made each play from cards it held at that moment and holds
its dealt hand now. ``fits`` decides it; ``fitting_deal`` builds such a deal from scratch
(the sampler's fall-back when drawing and checking keeps failing).

Per seat, with its hand then fixed, the face-down draws are checked per colour: each play
a colour's cards held so far cannot cover is a demand due before that play; demands,
earliest due first, must each find a face-down draw made before they are due.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations_with_replacement

from rules.rng import SeededRng


class _Seat:
    __slots__ = ("known", "size", "steps", "took", "played", "draws")

    def __init__(self, facts: dict, s: int) -> None:
        self.known = Counter(facts["in_hand"][s])
        self.size = int(facts["hand_sizes"][s])
        self.steps = [step.split(":", 1) for step in facts["since"][s]]
        self.took = Counter(step[1] for step in self.steps if step[0] == "display")
        self.played = Counter(step[1] for step in self.steps if step[0] == "played")
        self.draws = sum(step[0] == "pile" for step in self.steps)

    def plays_possible(self, then: Counter, drawn: Counter) -> bool:
        """Could the seat, holding ``then`` at the reshuffle and drawing ``drawn`` face
        down since (in some order), have made every play when it did?"""
        held = Counter(then)
        due: list[int] = []  # step index before which a face-down draw must have come
        short = Counter()
        draw_at: list[int] = []
        for index, step in enumerate(self.steps):
            if step[0] == "pile":
                draw_at.append(index)
            elif step[0] == "display":
                held[step[1]] += 1
            elif held[step[1]]:
                held[step[1]] -= 1
            else:
                due.append(index)
                short[step[1]] += 1
        if short - drawn or sum(drawn.values()) != len(draw_at):
            return False
        return all(k < len(draw_at) and draw_at[k] < deadline for k, deadline in enumerate(due))


def _facts(view: dict, seat: int):
    knowledge = view.get("knowledge") or {}
    facts = knowledge.get("reshuffle")
    if facts is None or "my_hand_at_reshuffle" not in knowledge:
        return None
    may_hold = Counter(knowledge["pile_may_hold"]) - Counter(knowledge.get("my_pile_draws", []))
    union = Counter(facts["hands_union"]) - Counter(knowledge["my_hand_at_reshuffle"])
    others = [_Seat(facts, s) for s in range(int(view["players"])) if s != seat]
    return may_hold, union, others


def fits(view: dict, seat: int, hands: list[list[str]], pile: list[str]) -> bool:
    """Do the other seats' ``hands`` and ``pile`` fit the history ``view`` shows ``seat``?
    (Always true before the reshuffle: the known cards alone then decide, and the
    sampler deals them.)"""
    read = _facts(view, seat)
    if read is None:
        return True
    may_hold, union, others = read
    in_pile = Counter(pile)
    if in_pile - may_hold:
        return False
    drawn = may_hold - in_pile
    if sum(drawn.values()) != sum(other.draws for other in others):
        return False
    now = [Counter(hand) for s, hand in enumerate(hands) if s != seat]
    colours = sorted(set(union) | set(drawn) | {c for hand in now for c in hand})
    return _assign(others, now, 0, union, drawn, colours)


def _assign(others, now, i, union: Counter, drawn: Counter, colours) -> bool:
    if i == len(others):
        return not +union and not +drawn
    seat = others[i]
    if seat.known - union:
        return False
    for extra in combinations_with_replacement(colours, seat.size - sum(seat.known.values())):
        then = seat.known + Counter(extra)
        if then - union:
            continue
        counts = {c: now[i][c] + seat.played[c] - seat.took[c] - then[c] for c in colours}
        if min(counts.values(), default=0) < 0:
            continue
        mine = +Counter(counts)
        if mine - drawn or not seat.plays_possible(then, mine):
            continue
        if _assign(others, now, i + 1, union - then, drawn - mine, colours):
            return True
    return False


def fitting_deal(view: dict, seat: int, colours: list[str],
                 rng: SeededRng) -> tuple[list[list[str]], list[str]] | None:
    """Other hands and a pile that fit, found by a randomised depth-first search (not
    uniform: the fall-back when checking drawn deals keeps failing); None before the
    reshuffle or if nothing fits."""
    read = _facts(view, seat)
    if read is None:
        return None
    may_hold, union, others = read
    found = _build(others, 0, union, may_hold, colours, rng, [])
    if found is None:
        return None
    hands_iter = iter(found[0])
    hands = [list(view["hand"]) if s == seat else next(hands_iter)
             for s in range(int(view["players"]))]
    pile = sorted(found[1].elements(), key=colours.index)
    rng.shuffle(pile)
    return hands, pile


def _build(others, i, union: Counter, left: Counter, colours, rng, hands):
    if i == len(others):
        return (hands, left) if not +union else None
    seat = others[i]
    thens = [seat.known + Counter(extra) for extra in
             combinations_with_replacement(colours, seat.size - sum(seat.known.values()))]
    thens = [then for then in thens if not then - union]
    draws = [Counter(combo) for combo in combinations_with_replacement(colours, seat.draws)]
    draws = [drawn for drawn in draws if not drawn - left]
    rng.shuffle(thens)
    rng.shuffle(draws)
    for then in thens:
        for drawn in draws:
            if not seat.plays_possible(then, drawn):
                continue
            hand = then + seat.took + drawn - seat.played
            cards = sorted(hand.elements(), key=colours.index)
            found = _build(others, i + 1, union - then, left - drawn, colours, rng,
                           [*hands, cards])
            if found is not None:
                return found
    return None
