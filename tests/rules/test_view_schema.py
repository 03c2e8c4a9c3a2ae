"""Each engine's ``view_schema()`` (issue 22, item 4) describes every view it gives: every
seat's and the spectator's, at every ply of whole games, after the end too. The REST
schema publishes it as ``<Game>View``, so a generated client types the view per game."""

from __future__ import annotations

import random

import pytest
from jsonschema import Draft202012Validator

from rules import available_games, get_engine

GAMES = [("han", 2, None), ("han", 4, {"map": "ways-of-diplomacy", "variant": True}),
         ("han", 3, {"map": "border-disputes", "variant": True}), ("hansa", 2, None),
         ("hansa", 4, None)]


def views_of_a_game(game, players, options, seed):
    engine = get_engine(game)
    rng = random.Random(seed)
    state = engine.setup(players, options, f"view-schema-{seed}")
    while True:
        for seat in [None, *range(players)]:
            yield engine.view(state, seat)
        if engine.is_over(state):
            return
        seat = engine.to_act(state)[0]
        state, _events = engine.apply(state, seat, rng.choice(engine.legal_moves(state, seat)))


@pytest.mark.parametrize("game, players, options", GAMES)
def test_every_view_of_a_whole_game_fits_the_schema(game, players, options):
    schema = get_engine(game).view_schema()
    Draft202012Validator.check_schema(schema)
    validator = Draft202012Validator(schema)
    checked = 0
    for view in views_of_a_game(game, players, options, seed=players):
        errors = sorted(validator.iter_errors(view), key=lambda error: error.path)
        assert not errors, [(list(error.path), error.message) for error in errors[:5]]
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("game", available_games())
def test_the_schema_requires_what_every_view_has_and_nothing_else(game):
    """Required keys are those of a spectator's view at the start (every reader gets at
    least those); a key the schema does not name would be untyped for a client."""
    engine = get_engine(game)
    schema = engine.view_schema()
    view = engine.view(engine.setup(2, None, "required"), None)
    assert set(schema["required"]) == set(view)
    over = []
    for view in views_of_a_game(game, 2, None, seed=7):
        over.append(view)
    named = set(schema["properties"])
    assert set().union(*(set(view) for view in over)) <= named
