"""The IS-MCTS bot (rules/bots/ismcts.py): legal, reproducible for a seed and an iteration
budget, bounded by its clock, and it sees through its rewards who is ahead."""

from __future__ import annotations

import itertools

import pytest

from rules import get_engine
from rules.bots import BOT_KINDS
from rules.bots.ismcts import (
    IsmctsSearch,
    SearchBudget,
    best_move_so_far,
    rewards_from_scores,
)
from rules.rng import SeededRng

BUDGET = SearchBudget(iterations=20, seconds=1e9)


def _mid_game(game, players, plies):
    engine = get_engine(game)
    state = engine.setup(players, None, f"mid-{game}")
    rng = SeededRng("mid")
    for _ in range(plies):
        seat = engine.to_act(state)[0]
        moves = engine.legal_moves(state, seat)
        state, _ = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
    return engine, state


@pytest.mark.parametrize(("game", "players", "plies"),
                         [("han", 2, 9), ("han", 4, 20), ("hansa", 2, 6), ("hansa", 4, 0)])
def test_the_search_plays_a_legal_move_the_same_for_the_same_seed(game, players, plies):
    engine, state = _mid_game(game, players, plies)
    seat = engine.to_act(state)[-1]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)

    def search(seed):
        run = IsmctsSearch(engine, view, legal, seat, SeededRng(seed), BUDGET)
        return run.run(), run

    move, run = search("a")
    assert move in legal
    assert run.iterations == BUDGET.iterations
    assert run.root.visits == BUDGET.iterations
    assert search("a")[0] == move


def test_the_clock_cap_stops_the_search_with_a_move_in_hand():
    engine, state = _mid_game("hansa", 3, 4)
    seat = engine.to_act(state)[0]
    ticks = itertools.count()  # a clock that moves one second per reading
    budget = SearchBudget(iterations=10_000, seconds=3)
    run = IsmctsSearch(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                       SeededRng("clock"), budget, clock=lambda: float(next(ticks)))
    move = run.run()
    assert run.iterations == 3
    assert move in engine.legal_moves(state, seat)


class _TimeLimit(Exception):
    """Stands for a worker's soft time limit, raised inside the running search."""


def _clock_that_interrupts_after(readings: int):
    ticks = itertools.count()

    def clock() -> float:
        tick = next(ticks)
        if tick >= readings:
            raise _TimeLimit()
        return 0.0
    return clock


def test_an_interrupted_search_hands_over_its_best_move_so_far():
    engine, state = _mid_game("hansa", 2, 4)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    # the clock is read once at the start and once after each iteration: interrupted at
    # the sixth reading, the search has run 5 iterations
    run = IsmctsSearch(engine, view, legal, seat, SeededRng("cut"),
                       SearchBudget(iterations=1000, seconds=1e9),
                       clock=_clock_that_interrupts_after(5))
    with pytest.raises(_TimeLimit) as raised:
        run.run()
    assert run.iterations == 5
    best = best_move_so_far(raised.value)
    assert best in legal and best == run.best_move()


def test_a_search_interrupted_before_its_first_iteration_hands_over_nothing():
    engine, state = _mid_game("hansa", 2, 4)
    seat = engine.to_act(state)[0]
    run = IsmctsSearch(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                       SeededRng("cut"), SearchBudget(iterations=1000, seconds=1e9),
                       clock=_clock_that_interrupts_after(0))
    with pytest.raises(_TimeLimit) as raised:
        run.run()
    assert run.iterations == 0 and best_move_so_far(raised.value) is None
    assert best_move_so_far(ValueError("not from a search")) is None


def test_a_single_legal_move_is_played_without_searching():
    engine, state = _mid_game("hansa", 2, 0)
    run = IsmctsSearch(engine, {}, [{"type": "only"}], 0, SeededRng("x"), BUDGET)
    assert run.run() == {"type": "only"} and run.iterations == 0


def test_rewards_rank_seats_and_grow_with_the_margin():
    assert rewards_from_scores([10, 10]) == [0.5, 0.5]
    low, high = rewards_from_scores([5, 20])
    assert 0 <= low < 0.5 < high <= 1
    four = rewards_from_scores([40, 30, 30, 10])
    assert four[0] > four[1] == four[2] > four[3]
    assert rewards_from_scores([21, 20])[0] < rewards_from_scores([40, 20])[0]


def test_levels_are_listed_weakest_first():
    assert BOT_KINDS == ("random", "greedy", "easy", "medium", "hard")
