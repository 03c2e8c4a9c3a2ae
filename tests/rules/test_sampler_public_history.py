"""The view's ``knowledge`` holds the facts issue 23 named, derived again from the moves.

These facts are what the knowledge of issue 23 held, not all the history says: samples
that keep them may still be impossible worlds (a face-down card the seat did not hold
when it played it; a reshuffled card in the wrong hand), so this file is not the test that
samples are possible. That is tests/rules/test_beliefs_exact.py, with an independent
reader of the whole public log (tests/rules/public_log.py; issue 44).

Over random positions of both games (seeded random play, every seat at every ply), each
sample is checked against facts this test derives itself from the moves and the public
views, not from the engine's ``knowledge``:

- Han: a card a seat took from the display is in its hand until it plays or discards that
  colour; after the reshuffle the pile holds only cards of the discard pile it was made
  of, less those laid out on the display since and those the sampling seat drew itself.
- Hansa: a harbour card a seat took is in its hand until that seat plays a card face
  down, then in its hand or face-down pile, until played face up; the sampling seat's own
  returned starting cards are in the normal deck until one is seen on the board.

The same facts are also compared with the engine's ``knowledge`` in every view, and the
sampler as it was (the view without ``knowledge``) is shown to break them.
"""

from __future__ import annotations

from collections import Counter

import pytest

from rules import get_engine
from rules.rng import SeededRng

HAN = get_engine("han")
HANSA = get_engine("hansa")


class HanHistory:
    """What every Han player knows from the moves, kept from public views (``None``) and
    the mover's own (for its own draws from the pile)."""

    def __init__(self, players: int) -> None:
        self.in_hand = [Counter() for _ in range(players)]
        self.pile_may_hold: Counter | None = None
        self.own_pile_draws = [Counter() for _ in range(players)]

    def record(self, before, after, mover: int, move: dict, hand_before, hand_after) -> None:
        played = move.get("cards", []) if move["type"] == "place" else (
            [move["card"]] if move["type"] == "discard" else [])
        for card in played:
            if self.in_hand[mover][card]:
                self.in_hand[mover][card] -= 1
        if move["type"] != "draw":
            return
        display = list(before["display"])
        if move["from"] == "display":
            self.in_hand[mover][display.pop(move["index"])] += 1
        elif before["depletions"] >= 1:
            self.own_pile_draws[mover] += Counter(hand_after) - Counter(hand_before)
        laid_out = after["display"][len(display):]
        if before["depletions"] == 0 and after["depletions"] >= 1:
            # the discard pile became the pile; cards laid out after that came from it
            self.pile_may_hold = Counter(before["discard"])
            from_old_pile = before["pile_size"] - (move["from"] == "pile")
            laid_out = laid_out[from_old_pile:]
        elif before["depletions"] == 0:
            laid_out = []
        if self.pile_may_hold is not None:
            self.pile_may_hold -= Counter(laid_out)

    def agrees(self, sample, seat: int) -> bool:
        for other, known in enumerate(self.in_hand):
            if other != seat and known - Counter(sample.hands[other]):
                return False
        if self.pile_may_hold is None:
            return True
        return not Counter(sample.pile) - (self.pile_may_hold - self.own_pile_draws[seat])

    def matches_view(self, view: dict) -> bool:
        knowledge = view["knowledge"]
        pile = None if self.pile_may_hold is None else +self.pile_may_hold
        return ([+known for known in self.in_hand] == [Counter(k) for k in knowledge["in_hand"]]
                and (pile is None) == (knowledge["pile_may_hold"] is None)
                and (pile is None or pile == Counter(knowledge["pile_may_hold"])))


class HansaHistory:
    """What every Hansa player knows from the moves (and each seat of its own returns)."""

    def __init__(self, players: int) -> None:
        self.in_hand = [set() for _ in range(players)]
        self.in_hand_or_face_down = [set() for _ in range(players)]
        self.returned = [set() for _ in range(players)]
        self.to_return: dict[int, set] = {}  # kept in hand until every seat has chosen

    def record(self, before, after, mover: int, move: dict, hand_before, hand_after) -> None:
        if move["type"] == "trade":
            self.in_hand[mover].discard(move["card"])
            self.in_hand_or_face_down[mover].discard(move["card"])
        elif move["type"] == "parliament":
            self.in_hand_or_face_down[mover] |= self.in_hand[mover]
            self.in_hand[mover] = set()
        elif move["type"] == "keep":
            self.to_return[mover] = set(hand_before) - set(move["cards"])
        if after["phase"] != "keep":
            for seat, cards in self.to_return.items():
                self.returned[seat] = cards
            self.to_return = {}
        if move.get("take") is not None:
            self.in_hand[mover].add(move["take"])
        on_board = {slot["card"]["id"] for row in after["rows"].values() for slot in row}
        for cards in self.returned:
            cards -= on_board  # came out of the deck, in everyone's sight

    def agrees(self, sample, seat: int) -> bool:
        for other in range(len(self.in_hand)):
            if other == seat:
                continue
            if not self.in_hand[other] <= set(sample.hands[other]):
                return False
            held = set(sample.hands[other]) | set(sample.face_down[other])
            if not self.in_hand_or_face_down[other] <= held:
                return False
        return self.returned[seat] <= set(sample.normal_deck)

    def matches_view(self, view: dict) -> bool:
        seats = view["knowledge"]["seats"]
        mine = view["viewer"]
        return all(
            set(entry["in_hand"]) == self.in_hand[s]
            and set(entry["in_hand_or_face_down"]) == self.in_hand_or_face_down[s]
            for s, entry in enumerate(seats)
        ) and (mine is None or set(view["knowledge"]["returned_to_deck"]) == self.returned[mine])


def _own_hand(engine, state, seat: int) -> list[str]:
    hand = engine.view(state, seat)
    if "hand" in hand:
        return list(hand["hand"])
    return [card["id"] for card in hand["seats"][seat]["hand"]]


def _walk(engine, history_class, players: int, seed: str):
    """Random play; yields (state, history) at every position before the end."""
    state = engine.setup(players, None, seed)
    history = history_class(players)
    rng = SeededRng(f"walk:{seed}")
    while not engine.is_over(state):
        yield state, history
        mover = engine.to_act(state)[0]
        moves = engine.legal_moves(state, mover)
        move = moves[rng.randbelow(len(moves))]
        before, hand_before = engine.view(state, None), _own_hand(engine, state, mover)
        state, _ = engine.apply(state, mover, move)
        history.record(before, engine.view(state, None), mover, move, hand_before,
                       _own_hand(engine, state, mover))


POSITIONS = [(HAN, HanHistory, players, game) for players in (2, 3, 4, 5) for game in (0, 1)]
POSITIONS += [(HANSA, HansaHistory, players, game) for players in (2, 3, 4) for game in (0, 1)]


@pytest.mark.parametrize(("engine", "history_class", "players", "game"), POSITIONS,
                         ids=[f"{e.name}-{p}p-{g}" for e, _, p, g in POSITIONS])
def test_every_sample_agrees_with_the_public_history(engine, history_class, players, game):
    rng = SeededRng(f"samples:{engine.name}:{players}:{game}")
    checked = 0
    for state, history in _walk(engine, history_class, players, f"history:{players}:{game}"):
        assert history.matches_view(engine.view(state, None))
        for seat in range(players):
            view = engine.view(state, seat)
            assert history.matches_view(view)
            for _ in range(2):
                sample = engine.sample_state(view, seat, rng)
                assert history.agrees(sample, seat), f"seat {seat}'s sample breaks the history"
                checked += 1
    assert checked > 100


@pytest.mark.parametrize(("engine", "history_class", "players"),
                         [(HAN, HanHistory, 4), (HANSA, HansaHistory, 3)],
                         ids=["han", "hansa"])
def test_the_old_view_only_sampler_breaks_the_history(engine, history_class, players):
    """The facts above have teeth: sampling from the view without its knowledge (as the
    sampler did before, and the ``hard_v1`` level still does) deals impossible worlds."""
    rng = SeededRng("old-sampler")
    broken = 0
    for state, history in _walk(engine, history_class, players, "history:old"):
        for seat in range(players):
            view = engine.view(state, seat)
            old_view = {key: value for key, value in view.items() if key != "knowledge"}
            broken += not history.agrees(engine.sample_state(old_view, seat, rng), seat)
    assert broken > 10


def _private_twin(engine, state, owner: int):
    """``state`` with what only ``owner`` knows changed (its draws from the reshuffled
    pile; its returned starting cards)."""
    twin = state.copy()
    if engine is HAN:
        twin.pile_draws[owner] = [*twin.pile_draws[owner], "red"]
    else:
        twin.returned[owner] = [*twin.returned[owner], twin.normal_deck[0]]
    return twin


@pytest.mark.parametrize("engine", [HAN, HANSA], ids=["han", "hansa"])
def test_a_seats_private_knowledge_shows_in_its_own_view_only(engine):
    state = engine.setup(3, None, "private-knowledge")
    twin = _private_twin(engine, state, 1)
    for viewer in (None, 0, 2):
        assert engine.view(twin, viewer) == engine.view(state, viewer)
    assert engine.view(twin, 1) != engine.view(state, 1)
