"""Malformed Han moves: whatever JSON a client sends, HanEngine.apply answers IllegalMove with a
code (docs/architecture.md, "The engine contract"), never another exception. The move service turns
a crash into a generic 400 (games/matches/services.py), which would hide it from REST tests, so this
calls the engine directly, in positions taken from seeded random games."""

from __future__ import annotations

import json
import random

import pytest

from rules import IllegalMove, get_engine
from tests.rules.malformed_moves import assert_refused_unless_listed, malformed_variants

CASES = [
    (2, {"map": "ways-of-diplomacy", "variant": False}),
    (3, {"map": "ways-of-diplomacy", "variant": True}),
    (4, {"map": "border-disputes", "variant": True}),
]


@pytest.mark.parametrize("players, options", CASES)
def test_malformed_moves_raise_illegal_move_only(players, options):
    engine = get_engine("han")
    rng = random.Random(f"han-malformed-{players}")
    state = engine.setup(players, options, f"malformed-{players}")
    tried = 0
    codes = set()
    for _ in range(60):  # positions along one game: placing, drawing, the end
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        legal = engine.legal_moves(state, seat)
        canonical = {json.dumps(move, sort_keys=True) for move in legal}
        for base in rng.sample(legal, min(2, len(legal))):
            for move in malformed_variants(base, rng):
                tried += 1
                assert_refused_unless_listed(engine, state, seat, move, canonical, codes)
        # a seat that owes nothing is refused too, whatever it sends
        for other in set(range(players)) - set(engine.to_act(state)):
            with pytest.raises(IllegalMove):
                engine.apply(state, other, rng.choice(legal))
        state, _ = engine.apply(state, seat, rng.choice(legal))
    assert tried > 1000
    assert "malformed_move" in codes and len(codes) >= 4, codes
