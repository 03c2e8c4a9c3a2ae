"""Judge 7 (issue 44): the judge's search is rewarded by winning alone, so a move that only
widens a lead already safe gives no result away, where judge 6's search (the bots' reward,
half of it a tanh of the margin) counted the narrower lead as result lost.

The decision: Han's last move of a two-player game, the last seat's last turn of the final
round, where no card is drawn and the game ends whatever is played, so every move's
outcome is exact (bench/han_final_decision.py). The position is one where the seat wins
with every legal move, by margins that differ; the move judged is the one with the
narrowest margin. The outcomes are computed here by the engine alone, apart from the
judge."""

from __future__ import annotations

import pytest

from rules import get_engine
from rules.analysis import AnalysisBudget, analyse_decision
from rules.bots import bot_rng, get_bot
from rules.bots.rewards import rewards_from_scores

BUDGET = AnalysisBudget(iterations=60, samples=4)


def _won_whatever_is_played():
    """The first two-player greedy Han game whose last decision is won by every legal
    move, by margins that differ: (engine, state, seat, legal moves, each move's margin)."""
    engine = get_engine("han")
    greedy = get_bot("greedy")
    for index in range(60):
        seed = f"judge-7:safe-lead:{index}"
        state, ply = engine.setup(2, None, seed), 0
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            moves = engine.legal_moves(state, seat)
            if state.final_round and state.turn == state.last_seat and state.phase == 0:
                margins = []
                for move in moves:
                    after, _ = engine.apply(state, seat, move)
                    assert engine.is_over(after)  # the outcome is exact
                    scores = engine.result(after)["scores"]
                    margins.append(scores[seat] - scores[1 - seat])
                if min(margins) > 0 and max(margins) > min(margins):
                    return engine, state, seat, moves, margins
                break
            move = greedy(engine, engine.view(state, seat), moves, seat,
                          bot_rng(seed, ply, seat))
            state, _ = engine.apply(state, seat, move)
            ply += 1
    pytest.fail("no greedy game in 60 ended on a decision won whatever was played")


def test_widening_a_safe_lead_gives_no_result_away_in_judge_7_but_did_in_judge_6():
    engine, state, seat, moves, margins = _won_whatever_is_played()
    narrowest = moves[margins.index(min(margins))]
    view = engine.view(state, seat)
    key = "judge-7:safe-lead:decision"

    judge7 = analyse_decision(engine, view, moves, seat, narrowest, key, BUDGET)
    # every move wins: its result is a sure win, and none is given away
    assert judge7.result_played == judge7.result_best == 1.0
    assert judge7.result_loss == 0
    # the labels still read points: a wider lead was there to take
    assert judge7.loss > 0
    assert judge7.value_best > judge7.value_played == pytest.approx(min(margins))

    judge6 = analyse_decision(engine, view, moves, seat, narrowest, key, BUDGET,
                              reward=rewards_from_scores)
    # the margin half of the bots' reward valued the wider lead: the narrow one lost result
    assert judge6.result_played < 1.0
    assert judge6.result_loss > 0
