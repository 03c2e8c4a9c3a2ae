"""The analyser's own logic (rules/analysis/): a decision's figures, their determinism,
the labels and a seat's summary."""

from __future__ import annotations

import pytest

from rules import get_engine
from rules.analysis import (
    AnalysisBudget,
    analyse_decision,
    decision_key,
    iter_decisions,
    label,
    match_summary,
    search,
    seat_summary,
    thresholds_for,
)
from rules.analysis.decision import CANDIDATES, points_ahead
from rules.analysis.grading import ACCURACY_SCALE, decision_accuracy
from rules.analysis.search import JUDGE_REWARD
from rules.bots import bot_rng, get_bot
from rules.bots.ismcts import IsmctsSearch, SearchBudget
from rules.rng import SeededRng

BUDGET = AnalysisBudget(iterations=20, samples=4)


def _random_log(game, players, seed, plies):
    engine = get_engine(game)
    state = engine.setup(players, None, seed)
    log = []
    for ply in range(plies):
        seat = engine.to_act(state)[0]
        move = get_bot("random")(engine, engine.view(state, seat),
                                 engine.legal_moves(state, seat), seat, bot_rng(seed, ply, seat))
        state, _ = engine.apply(state, seat, move)
        log.append((seat, move))
    return log


@pytest.mark.parametrize(("game", "players"), [("han", 2), ("hansa", 4)])
def test_decisions_are_judged_from_their_views_and_the_same_twice(game, players):
    engine = get_engine(game)
    log = _random_log(game, players, "judged", 12)
    decisions = list(iter_decisions(engine, players, None, "judged", log))
    assert [(d.ply, d.seat, d.played) for d in decisions] == [
        (ply, seat, move) for ply, (seat, move) in enumerate(log)]
    for decision in decisions[:6]:
        key = decision_key("judged", decision.ply, decision.seat)
        first = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                                 decision.played, key, BUDGET)
        again = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                                 decision.played, key, BUDGET)
        assert first == again  # seeded by the decision's key alone
        assert first.loss >= 0 and first.best in decision.legal_moves
        assert first.choices == len(decision.legal_moves)
        if first.best == first.played:
            assert first.loss == 0
    assert list(iter_decisions(engine, players, None, "judged", log, start=5))[0].ply == 5


def test_a_forced_move_loses_nothing_and_the_best_move_loses_nothing():
    engine = get_engine("han")
    log = _random_log("han", 2, "forced", 3)
    decision = list(iter_decisions(engine, 2, None, "forced", log))[2]
    only = decision.legal_moves[:1]
    forced = analyse_decision(engine, decision.view, only, decision.seat, only[0], "k", BUDGET)
    assert forced.loss == 0 and forced.best == only[0] and forced.choices == 1
    judged = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                              decision.played, "k", BUDGET)
    best = analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                            judged.best, "k", BUDGET)
    assert best.loss == 0
    with pytest.raises(ValueError):
        analyse_decision(engine, decision.view, decision.legal_moves, decision.seat,
                         {"type": "not a move"}, "k", BUDGET)


def test_a_game_that_needs_judging_finds_losses_for_random_play():
    """Over the opening of a Hansa game, random moves lose points against the search."""
    engine = get_engine("hansa")
    log = _random_log("hansa", 2, "losses", 16)
    losses = [analyse_decision(engine, d.view, d.legal_moves, d.seat, d.played,
                               decision_key("losses", d.ply, d.seat), BUDGET).loss
              for d in iter_decisions(engine, 2, None, "losses", log)]
    assert sum(losses) > 0


def test_points_ahead_of_the_field():
    assert points_ahead([10, 4, 7], 0) == pytest.approx(4.5)
    assert points_ahead([10, 4, 7], 1) == pytest.approx(-4.5)
    assert points_ahead([3], 0) == 3


def test_a_move_the_search_would_not_try_still_gets_its_share_of_the_search():
    """Judge 3: the move played is valued by the search like its candidates. Progressive
    widening leaves most of a Hansa turn's moves unvisited; one of them, played, gets
    ``PLAYED_SHARE`` of the iterations of its own, and its mean reward is a reward."""
    engine = get_engine("hansa")
    log = _random_log("hansa", 2, "unvisited", 4)
    decision = list(iter_decisions(engine, 2, None, "unvisited", log))[3]
    iterations = 60
    plain = IsmctsSearch(engine, decision.view, decision.legal_moves, decision.seat,
                         SeededRng("k:search"),
                         SearchBudget(iterations=iterations, seconds=1e9,
                                      grow_with_seats=False), reward=JUDGE_REWARD)
    plain.run()
    tried = plain.ranked_moves()
    untried = [move for move in decision.legal_moves if move not in tried]
    assert untried, "the position should have moves the search never tried"
    played, found = search.searched_moves(engine, decision.view, decision.legal_moves,
                                          decision.seat, untried[0], SeededRng("k:search"),
                                          iterations, CANDIDATES)
    assert played.move == untried[0]
    assert played.visits == round(search.PLAYED_SHARE * iterations)
    assert 0.0 <= played.reward <= 1.0
    # the search's own ranking comes first, as without the move played
    assert [move.move for move in found] == tried[:CANDIDATES]


def test_the_best_move_is_the_candidate_with_the_best_result():
    """The search's candidates and the move played, valued by the search's mean reward:
    the result lost is against the highest; neither loss is ever negative, and the move
    played, when it is shown as the best, loses no points (judge 6: its result loss may
    still be above 0, tests/rules/test_analysis_result_loss.py)."""
    engine = get_engine("hansa")
    log = _random_log("hansa", 2, "candidates", 12)
    for d in list(iter_decisions(engine, 2, None, "candidates", log))[:6]:
        judged = analyse_decision(engine, d.view, d.legal_moves, d.seat, d.played,
                                  decision_key("candidates", d.ply, d.seat), BUDGET)
        assert judged.result_best >= judged.result_played and judged.result_loss >= 0
        assert judged.loss >= 0 and 0 <= judged.result_played <= 1
        if judged.best == judged.played:
            assert judged.loss == 0
    assert CANDIDATES >= 2


def test_the_best_move_never_scores_fewer_points_than_the_move_played():
    """Issue 41: 26 of 119 decisions lost nothing yet showed a best move of lower value
    ("best found move (-5.0)" beside "played (-2.729)"). A move played that scores at least
    as many points is the best move itself, and a best move other than it scores more."""
    seen_other_best = 0
    for game, players in (("hansa", 2), ("han", 3)):
        engine = get_engine(game)
        log = _random_log(game, players, "never-worse", 16)
        for d in list(iter_decisions(engine, players, None, "never-worse", log))[:12]:
            judged = analyse_decision(engine, d.view, d.legal_moves, d.seat, d.played,
                                      decision_key("never-worse", d.ply, d.seat), BUDGET)
            assert judged.value_best >= judged.value_played
            if judged.loss == 0:
                assert judged.best == judged.played
            else:
                seen_other_best += 1
                assert judged.value_best > judged.value_played
    assert seen_other_best > 0  # random play loses points somewhere: the other branch ran


def test_labels_and_accuracy_follow_the_thresholds_of_each_game():
    han = thresholds_for("han")
    assert label(han.inaccuracy - 0.01, han) is None
    assert label(han.inaccuracy, han) == "inaccuracy"
    assert label(han.mistake, han) == "mistake"
    assert label(han.blunder + 5, han) == "blunder"
    assert thresholds_for("hansa").blunder > han.blunder  # Hansa's scores are larger
    assert thresholds_for("nim") == thresholds_for("another plugin")
    assert decision_accuracy(0) == 100
    assert decision_accuracy(ACCURACY_SCALE) == pytest.approx(36.79, abs=0.01)
    assert han.to_json()["accuracy_scale"] == ACCURACY_SCALE  # a reward from 0 to 1: any game


def test_a_seat_summary_counts_labels_and_names_key_moments():
    han = thresholds_for("han")
    rows = [
        {"ply": 0, "loss": 0.0, "result_loss": 0.0, "value_best": 0.0, "choices": 3},
        {"ply": 2, "loss": 7.0, "result_loss": 0.3, "value_best": 1.0, "choices": 5},  # blunder
        # forced; a swing of +8
        {"ply": 4, "loss": 0.0, "result_loss": 0.0, "value_best": 9.0, "choices": 1},
        # inaccuracy in points, but no result lost (a decided position)
        {"ply": 6, "loss": 2.0, "result_loss": 0.0, "value_best": 8.0, "choices": 2},
    ]
    summary = seat_summary(1, rows, han)
    assert summary["seat"] == 1 and summary["decisions"] == 4 and summary["choices"] == 3
    assert summary["labels"] == {"inaccuracy": 1, "mistake": 0, "blunder": 1}
    assert summary["mean_loss"] == 3.0
    assert summary["mean_result_loss"] == 0.1
    assert summary["accuracy"] == round(decision_accuracy(0.1), 1)
    assert [(m["ply"], m["kind"]) for m in summary["key_moments"]] == [
        (2, "loss"), (4, "swing"), (6, "loss")]
    assert seat_summary(0, [], han)["accuracy"] is None


def test_within_a_match_accuracy_ranks_the_seats_by_the_result_they_gave_away_in_all():
    """Seat 0 gave away 0.1 of a win at each of three decisions (0.3 in all), seat 1 0.2 at
    its one decision: less per decision, but less in all is seat 1, and the total decides a
    game. Both are divided by the match's two decisions per seat."""
    han = thresholds_for("han")
    rows = [{"seat": 0, "ply": ply, "loss": 0.5, "result_loss": 0.1, "value_best": 0.0,
             "choices": 3} for ply in (0, 2, 4)]
    rows += [{"seat": 1, "ply": 1, "loss": 0.5, "result_loss": 0.2, "value_best": 0.0,
              "choices": 3}, {"seat": 1, "ply": 3, "loss": 0.0, "result_loss": 0.0,
                              "value_best": 0.0, "choices": 1}]
    first, second = match_summary(rows, 2, han)
    assert (first["result_lost"], second["result_lost"]) == (0.3, 0.2)
    assert first["mean_result_loss"] < second["mean_result_loss"]
    assert first["accuracy"] == round(decision_accuracy(0.3 / 2), 1)
    assert second["accuracy"] == round(decision_accuracy(0.2 / 2), 1)
    assert second["accuracy"] > first["accuracy"]
