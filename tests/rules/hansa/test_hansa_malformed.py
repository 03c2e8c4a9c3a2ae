"""Malformed Hansa moves: whatever JSON a client sends, HansaEngine.apply answers IllegalMove with a
code (docs/architecture.md, "The engine contract"), never another exception. The move service turns
a crash into a generic 400 (games/matches/services.py), which would hide it from REST tests, so this
calls the engine directly, in every phase of seeded random games (keep, trade, store, parliament,
final card)."""

from __future__ import annotations

import json
import random

import pytest

from rules import IllegalMove, get_engine
from tests.rules.malformed_moves import assert_refused_unless_listed, malformed_variants


@pytest.mark.parametrize("players", [2, 3, 4])
def test_malformed_moves_raise_illegal_move_only(players):
    engine = get_engine("hansa")
    rng = random.Random(f"hansa-malformed-{players}")
    state = engine.setup(players, None, f"malformed-{players}")
    tried = 0
    codes = set()
    move_types = set()
    while not engine.is_over(state):
        to_act = engine.to_act(state)
        seat = rng.choice(to_act)
        legal = engine.legal_moves(state, seat)
        canonical = {json.dumps(move, sort_keys=True) for move in legal}
        move_types.update(move["type"] for move in legal)
        for move in malformed_variants(rng.choice(legal), rng, per_place=3):
            tried += 1
            assert_refused_unless_listed(engine, state, seat, move, canonical, codes)
        for other in set(range(players)) - set(to_act):
            with pytest.raises(IllegalMove):
                engine.apply(state, other, rng.choice(legal))
        state, _ = engine.apply(state, seat, rng.choice(legal))
    assert tried > 500
    assert {"keep", "trade"} <= move_types, move_types
    assert "malformed_move" in codes and len(codes) >= 4, codes
