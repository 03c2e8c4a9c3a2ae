"""Judge 6 (issue 44): the move shown as the best reads points, the result lost reads the
best result. A move played that scores at least as many points as the candidate with the
best result is shown as the best and loses no points (issue 41), but what it gives away of
the chance to win still counts against its accuracy. Judge 5 zeroed both, which put points
back into accuracy (docs/analysis.md, point 3 and "Validity")."""

from __future__ import annotations

import pytest

from rules import get_engine
from rules.analysis import (
    AnalysisBudget,
    analyse_decision,
    decision_key,
    iter_decisions,
    search,
    seat_summary,
    thresholds_for,
)
from rules.analysis.decision import CANDIDATES, points_ahead
from rules.bots import bot_rng, get_bot
from rules.rng import SeededRng

BUDGET = AnalysisBudget(iterations=20, samples=4)
SEED = "judge-6"


def _greedy_log(engine, players, plies):
    state, log = engine.setup(players, None, SEED), []
    for ply in range(plies):
        seat = engine.to_act(state)[0]
        move = get_bot("greedy")(engine, engine.view(state, seat),
                                 engine.legal_moves(state, seat), seat, bot_rng(SEED, ply, seat))
        state, _ = engine.apply(state, seat, move)
        log.append((seat, move))
    return log


def _candidates_measured_here(engine, decision, key):
    """The candidates' results, straight from the search, and their points in the judge's
    worlds and rollouts, computed here apart from the judge: ``[(move, reward, value)]``,
    the move played first."""
    played, found = search.searched_moves(engine, decision.view, decision.legal_moves,
                                          decision.seat, decision.played,
                                          SeededRng(f"{key}:search"), BUDGET.iterations,
                                          CANDIDATES)
    rows = [(played.move, played.reward)] + [(m.move, m.reward) for m in found
                                             if m.move != decision.played]
    values = []
    for move, _reward in rows:
        total = 0.0
        for world_index in range(BUDGET.samples):
            world = engine.sample_state(decision.view, decision.seat,
                                        SeededRng(f"{key}:world:{world_index}"))
            after, _ = engine.apply(world, decision.seat, move)
            scores = search.estimated_scores(engine, after,
                                             SeededRng(f"{key}:rollout:{world_index}"))
            total += points_ahead(scores, decision.seat)
        values.append(total / BUDGET.samples)
    return [(move, reward, value) for (move, reward), value in zip(rows, values, strict=True)]


def test_more_points_but_a_worse_result_is_shown_as_best_yet_loses_accuracy():
    engine = get_engine("han")
    thresholds = thresholds_for("han")
    seen = 0
    for decision in iter_decisions(engine, 2, None, SEED, _greedy_log(engine, 2, 24)):
        if len(decision.legal_moves) < 2:
            continue
        key = decision_key(SEED, decision.ply, decision.seat)
        rows = _candidates_measured_here(engine, decision, key)
        _played, reward_played, value_played = rows[0]
        best_result = max(reward for _move, reward, _value in rows)
        values_of_the_best_results = [value for _move, reward, value in rows
                                      if reward == best_result]
        if not (reward_played < best_result
                and value_played >= max(values_of_the_best_results)):
            continue
        seen += 1
        judged = analyse_decision(engine, decision.view, decision.legal_moves,
                                  decision.seat, decision.played, key, BUDGET)
        # shown: the move played, no points lost, no label (issue 41's display)
        assert judged.best == decision.played
        assert judged.value_best == judged.value_played == pytest.approx(value_played)
        assert judged.loss == 0
        # read by accuracy: the result given away against the best result found
        assert judged.result_played == pytest.approx(reward_played)
        assert judged.result_best == pytest.approx(best_result)
        assert judged.result_loss == pytest.approx(best_result - reward_played)
        assert judged.result_loss > 0
        row = {"ply": decision.ply, **judged.to_json()}
        summary = seat_summary(decision.seat, [row], thresholds)
        assert summary["labels"] == {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        assert summary["accuracy"] < 100.0
        assert summary["result_lost"] == pytest.approx(best_result - reward_played, abs=1e-4)
    assert seen > 0, "no decision of this game played more points for a worse result"
