"""The leak checker used by the API tests must be able to fail: fed another seat's view
or the raw state it objects, fed the reader's own view it does not."""

from __future__ import annotations

import pytest

from rules import get_engine
from tests.games.support import TEST_SEED, assert_no_leak


def _state(game: str, players: int = 3):
    engine = get_engine(game)
    return engine, engine.setup(players, engine.normalize_options(players, {}), TEST_SEED)


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_own_and_spectator_views_pass(game):
    engine, state = _state(game)
    raw = engine.to_json(state)
    assert_no_leak(engine.view(state, 0), game=game, state=raw, seed=TEST_SEED, reader=0)
    assert_no_leak(engine.view(state, None), game=game, state=raw, seed=TEST_SEED, reader=None)


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_another_seats_view_is_caught(game):
    engine, state = _state(game)
    raw = engine.to_json(state)
    with pytest.raises(AssertionError):
        assert_no_leak(engine.view(state, 1), game=game, state=raw, seed=TEST_SEED, reader=0)
    with pytest.raises(AssertionError):
        assert_no_leak(engine.view(state, 1), game=game, state=raw, seed=TEST_SEED,
                       reader=None)


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_raw_state_and_seed_are_caught(game):
    engine, state = _state(game)
    raw = engine.to_json(state)
    with pytest.raises(AssertionError):
        assert_no_leak({"match": {"state": raw}}, game=game, state=raw, seed=TEST_SEED,
                       reader=0)
    with pytest.raises(AssertionError, match="seed"):
        assert_no_leak({"seed": TEST_SEED}, game=game, state=raw, seed=TEST_SEED, reader=0)


def test_han_pile_order_is_caught_under_any_key():
    engine, state = _state("han")
    raw = engine.to_json(state)
    with pytest.raises(AssertionError):
        assert_no_leak({"upcoming": raw["pile"]}, game="han", state=raw, seed=TEST_SEED,
                       reader=0)


def test_hansa_deck_card_is_caught_under_any_key():
    engine, state = _state("hansa")
    raw = engine.to_json(state)
    with pytest.raises(AssertionError):
        assert_no_leak({"hint": raw["normal_deck"][0]}, game="hansa", state=raw,
                       seed=TEST_SEED, reader=None)
