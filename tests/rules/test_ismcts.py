"""The IS-MCTS bot (rules/bots/ismcts.py): legal, reproducible for a seed and an iteration
budget, bounded by its clock, and it sees through its rewards who is ahead."""

from __future__ import annotations

import ast
import itertools
import math

import pytest

from rules import get_engine
from rules.bots import BOT_KINDS, bot_rng, choose_bot_move
from rules.bots.ismcts import (
    IsmctsSearch,
    SearchBudget,
    backstop_firings,
    best_move_so_far,
    move_key,
)
from rules.bots.rewards import rewards_from_scores
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
    # the budget is for two seats; each further seat adds as many again
    assert run.iterations == run.root.visits == BUDGET.iterations * (players - 1)
    assert search("a")[0] == move


def test_the_iterations_grow_by_the_whole_budget_per_seat_past_two():
    budget = SearchBudget(iterations=300, seconds=6)
    assert [budget.iterations_for(seats) for seats in (1, 2, 3, 4, 5)] == [300, 300, 600, 900,
                                                                          1200]
    fixed = SearchBudget(iterations=300, seconds=6, grow_with_seats=False)
    assert fixed.iterations_for(4) == 300


def test_an_iteration_cap_bounds_the_search_at_four_seats_too():
    engine, state = _mid_game("hansa", 4, 0)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    capped = choose_bot_move("hard", engine, view, legal, seat, match_key="cap", ply=0,
                             iteration_cap=7)
    budget = SearchBudget(iterations=7, seconds=1e9, grow_with_seats=False)
    expected = IsmctsSearch(engine, view, legal, seat, bot_rng("cap", 0, seat), budget)
    assert capped == expected.run()
    assert expected.iterations == 7


def test_the_clock_cap_stops_the_search_with_a_move_in_hand():
    engine, state = _mid_game("hansa", 3, 4)
    seat = engine.to_act(state)[0]
    ticks = itertools.count()  # a clock that moves one second per reading
    budget = SearchBudget(iterations=10_000, seconds=3)
    run = IsmctsSearch(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                       SeededRng("clock"), budget, clock=lambda: float(next(ticks)))
    fired = sum(backstop_firings.values())
    move = run.run()
    assert run.iterations == 3
    assert move in engine.legal_moves(state, seat)
    assert run.backstop_fired and sum(backstop_firings.values()) == fired + 1
    assert backstop_firings[("ismcts", run.target)] >= 1


def test_a_backstop_firing_is_logged_and_a_full_search_is_not(caplog):
    engine, state = _mid_game("hansa", 2, 6)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    full = IsmctsSearch(engine, view, legal, seat, SeededRng("log"), BUDGET)
    with caplog.at_level("WARNING", logger="rules.bots.ismcts"):
        full.run()
    assert not full.backstop_fired and not caplog.records
    assert full.cpu_seconds > 0  # think time is CPU time
    ticks = itertools.count()
    cut = IsmctsSearch(engine, view, legal, seat, SeededRng("log"),
                       SearchBudget(iterations=50, seconds=2), clock=lambda: float(next(ticks)))
    with caplog.at_level("WARNING", logger="rules.bots.ismcts"):
        cut.run()
    assert cut.iterations == 2
    assert [record.getMessage() for record in caplog.records] == [
        f"search backstop fired: 2 of 50 iterations in 2.0 s (seat {seat})"]


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


def test_the_ranked_moves_start_with_the_search_s_choice():
    """What the post-game analysis judges besides the move played (rules/analysis)."""
    engine, state = _mid_game("hansa", 2, 4)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    run = IsmctsSearch(engine, view, legal, seat, SeededRng("ranked"),
                       SearchBudget(iterations=60, seconds=1e9))
    choice = run.run()
    ranked = run.ranked_moves()
    assert ranked[0] == choice == run.best_move()
    assert len(ranked) > 1 and all(move in legal for move in ranked)
    assert len({repr(move) for move in ranked}) == len(ranked)


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


def test_a_point_of_margin_separates_outcomes_of_equal_rank():
    """Issue 23: with the old relative margin a point was worth ~0.002 of reward in Han, less
    than the search could tell apart; near a tie it is now 0.25 / scale (0.025 at 10)."""
    gain = rewards_from_scores([31, 20])[0] - rewards_from_scores([30, 20])[0]
    assert gain > 0.005
    assert rewards_from_scores([20, 21])[0] - rewards_from_scores([20, 22])[0] > 0.005
    # a wider scale (a high-scoring game) makes a point weigh less, never nothing
    wide = rewards_from_scores([31, 20], 40)[0] - rewards_from_scores([30, 20], 40)[0]
    assert 0 < wide < gain


def test_the_root_prior_is_on_the_rewards_scale():
    engine, state = _mid_game("hansa", 2, 6)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    run = IsmctsSearch(engine, view, legal, seat, SeededRng("prior"), BUDGET)
    run.score_scale = 10.0
    prior = run._root_prior()
    values = [engine.move_value(view, seat, move) for move in legal]
    assert max(prior.values()) == 0.0  # the best immediate move loses nothing
    for move, value in zip(legal, values, strict=True):
        # what its shortfall in points would cost as a margin, never more than the margin term
        assert prior[move_key(move)] == pytest.approx(0.25 * math.tanh((value - max(values)) / 10))
        assert -0.25 < prior[move_key(move)] <= 0


def _walk_tree(node):
    yield node
    for child in node.children.values():
        yield from _walk_tree(child)


def test_opponents_moves_lead_to_children_keyed_by_what_the_searcher_sees():
    """A reply that differs only in the card an opponent plays face down to Parliament
    (``redact_move`` hides it) leads to the same subtree."""
    engine, state = _mid_game("hansa", 2, 6)
    seat = engine.to_act(state)[0]
    run = IsmctsSearch(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                       SeededRng("keys"), SearchBudget(iterations=200, seconds=1e9))
    run.run()
    opponent_parliaments = 0
    for node in _walk_tree(run.root):
        for mover, edges in node.edges.items():
            if mover == seat:
                continue
            for key, edge in edges.items():
                move = ast.literal_eval(key)
                if move["type"] == "parliament" and edge.visits:
                    opponent_parliaments += 1
                    assert key not in node.children  # the whole move names no subtree
                    assert move_key(engine.redact_move(move, mover, seat)) in node.children
    assert opponent_parliaments > 0


def test_a_simultaneous_phase_is_searched_as_simultaneous():
    """Hansa's keep: every seat picks at the root from its own statistics (decoupled), and
    the subtrees are keyed by the searcher's own keep and the others' hidden ones."""
    engine = get_engine("hansa")
    state = engine.setup(3, None, "simultaneous")
    seat = 1
    run = IsmctsSearch(engine, engine.view(state, seat), engine.legal_moves(state, seat), seat,
                       SeededRng("sim"), SearchBudget(iterations=60, seconds=1e9))
    run.run()
    assert set(run.root.edges) == {0, 1, 2}
    hidden = move_key({"type": "keep"})
    for key in run.root.children:
        assert isinstance(key, tuple) and len(key) == 3
        assert [part == hidden for part in key] == [True, False, True]
    # each opponent's picks were its own keeps, each tried in some sample
    assert all(len(run.root.edges[other]) > 1 for other in (0, 2))


def test_levels_are_listed_weakest_first():
    assert BOT_KINDS == ("random", "greedy", "easy", "medium", "hard_v1", "hard")


def test_hard_v1_s_clock_cap_is_counted_like_the_backstop(caplog):
    """issue 44: the old search's cap used to fire silently."""
    from rules.bots import ismcts_v1

    engine, state = _mid_game("hansa", 3, 4)
    seat = engine.to_act(state)[0]
    view, legal = engine.view(state, seat), engine.legal_moves(state, seat)
    ticks = itertools.count()
    cut = ismcts_v1.IsmctsSearch(engine, view, legal, seat, SeededRng("v1"),
                                 ismcts_v1.SearchBudget(iterations=500, seconds=3),
                                 clock=lambda: float(next(ticks)))
    fired = sum(backstop_firings.values())
    fired_v1 = backstop_firings[("hard_v1", 500)]
    with caplog.at_level("WARNING", logger="rules.bots.ismcts_v1"):
        assert cut.run() in legal
    assert cut.iterations == 3 and sum(backstop_firings.values()) == fired + 1
    # counted under its own key: a hard search of the same budget cut short is another
    assert backstop_firings[("hard_v1", 500)] == fired_v1 + 1
    assert [r.getMessage() for r in caplog.records] == [
        f"hard_v1 search cap fired: 3 of 500 iterations in 3.0 s (seat {seat})"]
    full = ismcts_v1.IsmctsSearch(engine, view, legal, seat, SeededRng("v1"),
                                  ismcts_v1.SearchBudget(iterations=5, seconds=60))
    full.run()
    assert sum(backstop_firings.values()) == fired + 1
