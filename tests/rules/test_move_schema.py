"""``Engine.move_schema``: every legal move a game lists validates against its schema,
the schema has one branch per move type with the ``type`` discriminator, and it refuses
what the engine refuses structurally (an unknown type, a stray key)."""

from __future__ import annotations

import random

import jsonschema
import pytest

from rules import get_engine


def _walk(game: str, players: int, seed: str, plies: int):
    """Every legal move of every seat to act along a random game of ``plies`` moves."""
    engine = get_engine(game)
    state = engine.setup(players, {}, seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if engine.is_over(state):
            return
        for seat in engine.to_act(state):
            yield from engine.legal_moves(state, seat)
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))


@pytest.mark.parametrize("game,players", [("han", 3), ("han", 2), ("hansa", 3)])
def test_every_legal_move_validates(game, players):
    schema = get_engine(game).move_schema()
    validator = jsonschema.Draft202012Validator(schema)
    types_seen = set()
    for move in _walk(game, players, f"schema-{game}-{players}", 400):
        validator.validate(move)
        types_seen.add(move["type"])
    assert len(types_seen) >= 3


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_one_branch_per_move_type_with_a_type_discriminator(game):
    schema = get_engine(game).move_schema()
    assert schema["discriminator"] == {"propertyName": "type"}
    names = [branch["properties"]["type"]["enum"] for branch in schema["oneOf"]]
    assert all(len(name) == 1 for name in names)
    assert len({name[0] for name in names}) == len(names)
    validator = jsonschema.Draft202012Validator(schema)
    assert not validator.is_valid({"type": "no-such-move"})
    first = schema["oneOf"][0]["properties"]["type"]["enum"][0]
    assert not validator.is_valid({"type": first, "stray": 1})


def test_the_schema_is_a_fresh_copy():
    engine = get_engine("han")
    engine.move_schema()["oneOf"].clear()
    assert engine.move_schema()["oneOf"]
