"""The never-peeks property of the post-game analyser (issue 44).

- The replay (``iter_decisions``) hands the judge only the mover's own view: driven with a
  watched engine and judge (tests/rules/judge_watch.py), every view the judge gets equals
  the mover's view from this test's own replay, and no engine call made while judging is
  handed the match's state; a judge that finds the state and looks at it is caught.
- Given the view, the judgement depends on nothing else: twin states the seat cannot tell
  apart (tests/rules/test_bots_never_peek.py) give the same analysis. (This alone cannot
  catch a judge that peeks, since it hands ``analyse_decision`` views already equal: the
  watched replay above is what holds the state to account.)

The analysis task (games/analysis/running.py) is watched the same way in
tests/games/analysis/test_analysis_judge_sees_views_only.py."""

from __future__ import annotations

import json

import pytest

from rules import get_engine
from rules.analysis import AnalysisBudget, analyse_decision, decision_key, iter_decisions
from rules.bots import bot_rng, get_bot
from rules.rng import SeededRng
from tests.rules.judge_watch import JudgeWatch, WatchedEngine, expected_views, peeking_judge
from tests.rules.test_bots_never_peek import CONFIGS, TWINS, _positions

BUDGET = AnalysisBudget(iterations=10, samples=3)


def _analyse(engine, state, seat, ply):
    legal = engine.legal_moves(state, seat)
    played = legal[ply % len(legal)]  # any legal move: the analysis judges it
    return analyse_decision(engine, engine.view(state, seat), legal, seat, played,
                            decision_key("never-peeks", ply, seat), BUDGET).to_json()


@pytest.mark.parametrize(("game", "players"), CONFIGS)
def test_the_analysis_of_a_decision_ignores_what_its_seat_cannot_see(game, players):
    engine = get_engine(game)
    checked = 0
    for state, seat, ply in _positions(game, players, f"analysis-peek-{game}-{players}",
                                       wanted=4):
        judged = _analyse(engine, state, seat, ply)
        truth = json.dumps(engine.to_json(state))
        view = engine.view(state, seat)
        # really different states that the seat cannot tell apart: since the views carry
        # public knowledge (issue 23), a swap of a card the seat saw returned to the deck
        # changes its view, and such a "twin" is no twin for this property
        twins = [twin for twin in TWINS[game](state, seat, SeededRng(f"twin:{ply}"))
                 if json.dumps(engine.to_json(twin)) != truth
                 and engine.view(twin, seat) == view]
        for twin in twins:
            assert _analyse(engine, twin, seat, ply) == judged
            checked += 1
    assert checked >= 4


def _bot_game(game: str, players: int, seed: str, plies: int) -> list[tuple[int, dict]]:
    engine = get_engine(game)
    state, log = engine.setup(players, None, seed), []
    for ply in range(plies):
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        move = get_bot("greedy")(engine, engine.view(state, seat),
                                 engine.legal_moves(state, seat), seat, bot_rng(seed, ply, seat))
        state, _ = engine.apply(state, seat, move)
        log.append((seat, move))
    return log


def _judge_replay(game: str, players: int, judge) -> tuple[WatchedEngine, JudgeWatch]:
    seed = f"watched:{game}:{players}"
    log = _bot_game(game, players, seed, 14)
    engine = WatchedEngine(get_engine(game))
    watch = JudgeWatch(engine, judge, expected_views(game, players, None, seed, log))
    for decision in iter_decisions(engine, players, None, seed, log):
        watch(engine, decision.view, decision.legal_moves, decision.seat, decision.played,
              decision_key(seed, decision.ply, decision.seat), BUDGET)
    assert watch.calls == len(log)
    return engine, watch


@pytest.mark.parametrize(("game", "players"), [("han", 3), ("hansa", 2), ("hansa", 4)])
def test_the_replay_hands_the_judge_only_the_mover_s_own_view(game, players):
    engine, _ = _judge_replay(game, players, analyse_decision)
    assert engine.violations == []


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_a_judge_that_looks_at_the_match_s_state_is_caught(game):
    engine, _ = _judge_replay(game, 2, peeking_judge(analyse_decision))
    assert engine.violations
    assert all("with the match's state" in v for v in engine.violations)


def test_a_replay_that_hands_more_than_the_mover_s_view_is_caught():
    """A replay that showed the judge every hand (as after the end) breaks the watch."""
    game, players, seed = "hansa", 2, "watched:reveal"
    log = _bot_game(game, players, seed, 8)
    engine = WatchedEngine(get_engine(game))
    watch = JudgeWatch(engine, analyse_decision, expected_views(game, players, None, seed, log))
    state = engine.setup(players, None, seed)
    for ply, (seat, move) in enumerate(log):
        watch(engine, engine.full_view(state), engine.legal_moves(state, seat), seat, move,
              decision_key(seed, ply, seat), BUDGET)
        state, _ = engine.apply(state, seat, move)
    assert any("a view not the mover's" in v for v in engine.violations)
