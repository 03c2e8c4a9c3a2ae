"""``sample_state(view, seat, rng)`` (the engine contract's determinization) for both games:
a sample shows the seat exactly its view, is a playable state, is reproducible from the
rng, ignores what the seat cannot see, and over many samples deals every unseen card to
every hidden place it could be in."""

from __future__ import annotations

import json
from collections import Counter, defaultdict

import pytest

from rules import get_engine
from rules.rng import SeededRng

CONFIGS = [
    ("han", 2, {}), ("han", 3, {"variant": True}), ("han", 5, {}),
    ("hansa", 2, {}), ("hansa", 3, {}), ("hansa", 4, {}),
]


def _positions(game, players, options, seed, every=3):
    """States along a seeded random game (every few plies), its end included."""
    engine = get_engine(game)
    state = engine.setup(players, options, seed)
    rng = SeededRng(f"walk:{seed}")
    ply = 0
    while not engine.is_over(state):
        if ply % every == 0:
            yield state
        to_act = engine.to_act(state)
        seat = to_act[rng.randbelow(len(to_act))]
        moves = engine.legal_moves(state, seat)
        state, _ = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
        ply += 1
    yield state


def _json(engine, state) -> str:
    return json.dumps(engine.to_json(state), sort_keys=True)


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
def test_a_sample_shows_the_seat_exactly_its_view_and_plays_on(game, players, options):
    engine = get_engine(game)
    for index, state in enumerate(_positions(game, players, options, f"agree-{players}")):
        for seat in range(players):
            view = engine.view(state, seat)
            sample = engine.sample_state(view, seat, SeededRng(f"s{index}:{seat}"))
            assert engine.view(sample, seat) == view
            assert engine.to_act(sample) == engine.to_act(state)
            assert engine.legal_moves(sample, seat) == engine.legal_moves(state, seat)
            # every seat that acts can move in the sample (others' hands are real hands)
            for actor in engine.to_act(sample):
                moves = engine.legal_moves(sample, actor)
                assert moves
                engine.apply(sample, actor, moves[-1])


@pytest.mark.parametrize(("game", "players", "options"), CONFIGS)
def test_samples_are_reproducible_and_blind_to_the_hidden_truth(game, players, options):
    engine = get_engine(game)
    for state in list(_positions(game, players, options, f"blind-{players}", every=7)):
        seat = engine.to_act(state)[0] if engine.to_act(state) else 0
        view = engine.view(state, seat)
        first = engine.sample_state(view, seat, SeededRng("same"))
        again = engine.sample_state(json.loads(json.dumps(view)), seat, SeededRng("same"))
        assert _json(engine, first) == _json(engine, again)
        if not engine.is_over(state):
            # the true state is one possible sample, not the one always drawn
            others = {_json(engine, engine.sample_state(view, seat, SeededRng(f"o{i}")))
                      for i in range(5)}
            assert len(others) > 1


def _han_places(engine, view, seat, rng):
    sample = engine.sample_state(view, seat, rng)
    places = {f"hand{s}": sample.hands[s] for s in range(sample.players) if s != seat}
    places["pile"] = sample.pile
    return places


def _hansa_places(engine, view, seat, rng):
    sample = engine.sample_state(view, seat, rng)
    places = {"normal_deck": sample.normal_deck, "luxury_deck": sample.luxury_deck}
    for s in range(sample.players):
        if s != seat:
            places[f"hand{s}"] = sample.hands[s]
            places[f"face_down{s}"] = sample.face_down[s]
    return places


def _coverage(engine, view, seat, sampler, samples):
    reached = defaultdict(set)
    for i in range(samples):
        for place, cards in sampler(engine, view, seat, SeededRng(f"cover{i}")).items():
            for card in cards:
                reached[card].add(place)
    return reached


def test_han_every_unseen_colour_reaches_every_place_the_history_allows():
    from rules.han.determinize import unseen_cards

    engine = get_engine("han")
    state = list(_positions("han", 3, {}, "cover", every=1))[20]
    view = engine.view(state, 1)
    known = view["knowledge"]["in_hand"]
    assert known[0] or known[2]  # the case that matters: some cards are pinned to a hand
    free = Counter(unseen_cards(view)) - Counter(known[0]) - Counter(known[2])
    reached = _coverage(engine, view, 1, _han_places, 300)
    assert set(reached) == set(unseen_cards(view))
    for colour, places in reached.items():
        open_hands = [s for s in (0, 2) if view["hand_sizes"][s] > len(known[s])]
        allowed = {f"hand{s}" for s in (0, 2)
                   if (free[colour] and s in open_hands) or colour in known[s]}
        if free[colour]:
            allowed.add("pile")
        assert places == allowed, colour


def test_han_after_the_reshuffle_the_pile_holds_only_cards_it_may_hold():
    engine = get_engine("han")
    state = next(s for s in _positions("han", 2, {}, "cover-late", every=1)
                 if s.depletions == 1 and len(s.pile) > 3)
    view = engine.view(state, 0)
    knowledge = view["knowledge"]
    may_hold = Counter(knowledge["pile_may_hold"]) - Counter(knowledge["my_pile_draws"])
    for i in range(100):
        pile = engine.sample_state(view, 0, SeededRng(f"late{i}")).pile
        assert not Counter(pile) - may_hold


# Hansa's breadth (every world an exact rejection sampler reaches) is
# tests/rules/test_beliefs_exact.py::test_the_sampler_reaches_every_world_exact_rejection_reaches


def _simultaneous_position(players, phase, seed):
    """A Hansa state in ``phase`` where seat 0 still owes its choice and the others chose."""
    engine = get_engine("hansa")
    for attempt in range(30):
        state = engine.setup(players, {}, f"{seed}:{attempt}")
        rng = SeededRng(f"{seed}:{attempt}")
        while not engine.is_over(state):
            to_act = engine.to_act(state)
            if state.phase == phase and to_act and to_act[0] == 0 and len(to_act) >= 1:
                others = [s for s in to_act if s != 0]
                for s in others:
                    moves = engine.legal_moves(state, s)
                    state, _ = engine.apply(state, s, moves[rng.randbelow(len(moves))])
                if others and 0 in engine.to_act(state):
                    return state, others
            seat = to_act[-1]
            moves = engine.legal_moves(state, seat)
            state, _ = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
    raise AssertionError(f"no {phase} position found")


@pytest.mark.parametrize("phase", ["keep", "store", "final_card"])
def test_hansa_other_seats_pending_choices_are_sampled_among_their_legal_choices(phase):
    engine = get_engine("hansa")
    state, others = _simultaneous_position(3, phase, f"pending-{phase}")
    view = engine.view(state, 0)
    seen = defaultdict(set)
    for i in range(200):
        sample = engine.sample_state(view, 0, SeededRng(f"p{i}"))
        for s in others:
            assert s in sample.pending
            seen[s].add(json.dumps(sample.pending[s], sort_keys=True))
        # the sample resolves like a real game once seat 0 chooses
        after, _ = engine.apply(sample, 0, engine.legal_moves(sample, 0)[0])
        assert after.phase != phase
    for s in others:
        if phase != "store" or len(engine.legal_moves(_without_choice(state, s), s)) > 1:
            assert len(seen[s]) > 1, f"seat {s}'s choice never varies"


def _without_choice(state, seat):
    probe = state.copy()
    probe.pending.pop(seat)
    return probe


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_a_view_that_is_not_a_seats_cannot_be_sampled(game):
    engine = get_engine(game)
    state = engine.setup(2, {}, "spectator")
    with pytest.raises(ValueError):
        engine.sample_state(engine.view(state, None), None, SeededRng("x"))
