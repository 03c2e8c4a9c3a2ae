"""The never-peeks property, extended to the post-game analyser: two states identical in
a seat's view but different in what it cannot see (the twins of
tests/rules/test_bots_never_peek.py) give the same analysis of that seat's decision: the
same best move, the same values, the same loss. The analyser is handed only the view, the
legal moves and the move played, so this checks that nothing else leaks in (a sampler
that read the state, a rollout seeded from it)."""

from __future__ import annotations

import json

import pytest

from rules import get_engine
from rules.analysis import AnalysisBudget, analyse_decision, decision_key
from rules.rng import SeededRng
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
