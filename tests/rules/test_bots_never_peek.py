"""Every bot level, in both games, never peeks: two states that differ only in what the
bot's seat cannot see (another seat's hand swapped with pile or deck cards, the pile or the
decks reordered, another seat's face-down cards or pending choice changed, another seat's
own private knowledge changed: the cards it drew from the reshuffled pile, the starting
cards it returned) give the same move for the same seed. The search levels run at their own
budgets with fewer iterations (and no clock), so the property is checked exactly and CI
stays fast."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rules import get_engine
from rules.bots import BOT_KINDS, bot_rng, get_bot
from rules.bots.ismcts import choose_ismcts_move
from rules.bots.ismcts_v1 import choose_ismcts_v1_move
from rules.bots.registry import LEGACY_LEVELS, SEARCH_LEVELS
from rules.rng import SeededRng

TEST_ITERATIONS = 12


def _choose(kind, engine, state, seat, ply):
    view = engine.view(state, seat)
    legal = engine.legal_moves(state, seat)
    rng = bot_rng("never-peeks", ply, seat)
    if kind in SEARCH_LEVELS:
        budget = replace(SEARCH_LEVELS[kind], iterations=TEST_ITERATIONS, seconds=1e9)
        return choose_ismcts_move(engine, view, legal, seat, rng, budget)
    if kind in LEGACY_LEVELS:
        budget = replace(LEGACY_LEVELS[kind], iterations=TEST_ITERATIONS, seconds=1e9)
        return choose_ismcts_v1_move(engine, view, legal, seat, rng, budget)
    return get_bot(kind)(engine, view, legal, seat, rng)


def _positions(game, players, seed, wanted):
    """Positions along a seeded random game where some seat acts; (state, seat, ply)."""
    engine = get_engine(game)
    state = engine.setup(players, None, seed)
    rng = SeededRng(f"walk:{seed}")
    found, ply = [], 0
    step = 7
    while not engine.is_over(state) and len(found) < wanted:
        to_act = engine.to_act(state)
        if ply % step == 3:
            found.append((state, to_act[-1], ply))
        seat = to_act[0]
        moves = engine.legal_moves(state, seat)
        state, _ = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
        ply += 1
    return found


def _han_twins(state, seat, rng):
    """Copies of ``state`` that differ only in what ``seat`` cannot see."""
    twins = []
    reordered = state.copy()
    rng.shuffle(reordered.pile)
    twins.append(reordered)
    for other in range(state.players):
        if other == seat or not state.hands[other] or not state.pile:
            continue
        swapped = state.copy()
        hand = swapped.hands[other]
        for i, card in enumerate(hand):
            j = next((k for k, c in enumerate(swapped.pile) if c != card), None)
            if j is not None:
                hand[i], swapped.pile[j] = swapped.pile[j], card
                hand.sort(key=state.board.color_index.__getitem__)
                twins.append(swapped)
                break
        private = state.copy()  # what only ``other`` knows: its draws from the new pile
        private.pile_draws[other] = [*private.pile_draws[other], state.board.colors[0]]
        twins.append(private)
    return twins


def _hansa_twins(state, seat, rng):
    engine = get_engine("hansa")
    data = engine.data
    twins = []
    reordered = state.copy()
    rng.shuffle(reordered.normal_deck)
    rng.shuffle(reordered.luxury_deck)
    twins.append(reordered)
    for other in range(state.players):
        if other == seat:
            continue
        for place in ("hands", "face_down"):
            cards = getattr(state, place)[other]
            if not cards or state.phase == "keep":
                continue
            swapped = state.copy()
            mine = getattr(swapped, place)[other]
            card = mine[0]
            deck = swapped.luxury_deck if data.cards[card].luxury else swapped.normal_deck
            if deck and other not in state.pending:
                mine[0], deck[-1] = deck[-1], card
                twins.append(swapped)
        if state.normal_deck:  # what only ``other`` knows: which cards it sent back
            private = state.copy()
            private.returned[other] = [*private.returned[other], state.normal_deck[0]]
            twins.append(private)
        if other in state.pending and not state.pending[other].get("forced"):
            # another seat's secret choice: any other legal choice it could have made
            probe = state.copy()
            probe.pending.pop(other)
            for move in engine.legal_moves(probe, other):
                changed, _ = engine.apply(probe, other, move)
                if changed.phase == state.phase and changed.pending != state.pending:
                    twins.append(changed)
                    break
    return twins


TWINS = {"han": _han_twins, "hansa": _hansa_twins}
CONFIGS = [("han", 2), ("han", 4), ("hansa", 2), ("hansa", 3)]


@pytest.mark.parametrize("kind", BOT_KINDS)
@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_a_bot_plays_the_same_move_whatever_it_cannot_see(kind, game, players):
    engine = get_engine(game)
    checked = 0
    for state, seat, ply in _positions(game, players, f"peek-{game}-{players}", wanted=5):
        move = _choose(kind, engine, state, seat, ply)
        truth = json.dumps(engine.to_json(state))
        twins = [twin for twin in TWINS[game](state, seat, SeededRng(f"twin:{ply}"))
                 if json.dumps(engine.to_json(twin)) != truth]  # really different states
        for twin in twins:
            assert engine.view(twin, seat) == engine.view(state, seat)  # not for this seat
            assert _choose(kind, engine, twin, seat, ply) == move
            checked += 1
    assert checked >= 5


def test_hidden_pending_choices_are_among_the_twins():
    """The Hansa twins include a changed secret choice of another seat (ruling Q6)."""
    engine = get_engine("hansa")
    state = engine.setup(3, None, "pending-twin")
    state, _ = engine.apply(state, 1, engine.legal_moves(state, 1)[0])
    twins = _hansa_twins(state, 0, SeededRng("t"))
    assert any(twin.pending != state.pending for twin in twins)
    assert _choose("hard", engine, state, 0, 1) == _choose("hard", engine, twins[-1], 0, 1)


@pytest.mark.parametrize("kind", ["hard", "hard_v1"])
def test_after_the_reshuffle_the_search_still_sees_only_its_view(kind):
    """Han after the reshuffle, where the pile's possible cards are public and each seat's
    own draws from it are its secret: twins differ in other hands, the pile's order and
    other seats' draws."""
    engine = get_engine("han")
    state = engine.setup(2, None, "peek-after-reshuffle")
    rng = SeededRng("walk:after-reshuffle")
    checked = ply = 0
    while not engine.is_over(state) and checked < 6:
        to_act = engine.to_act(state)
        if state.depletions == 1 and ply % 5 == 0:
            seat = to_act[0]
            move = _choose(kind, engine, state, seat, ply)
            for twin in _han_twins(state, seat, SeededRng(f"twin:{ply}")):
                assert engine.view(twin, seat) == engine.view(state, seat)
                assert _choose(kind, engine, twin, seat, ply) == move
                checked += 1
        moves = engine.legal_moves(state, to_act[0])
        state, _ = engine.apply(state, to_act[0], moves[rng.randbelow(len(moves))])
        ply += 1
    assert checked >= 6
