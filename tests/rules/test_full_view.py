"""``engine.full_view(state)``: everything, in the shape of a view, for the pictures of an
ended match at any ply (games/boards). Before the end it is the spectator's view plus every
hidden hand (and Hansa's face-down cards); at the end it is the spectator's view, which
shows everything then anyway."""

from __future__ import annotations

import pytest

from rules import get_engine
from rules.rng import SeededRng


def _played(game: str, players: int, plies: int | None):
    engine = get_engine(game)
    state = engine.setup(players, {}, f"full-view-{game}")
    rng = SeededRng(f"full-view-moves-{game}")
    done = 0
    while not engine.is_over(state) and (plies is None or done < plies):
        seat = engine.to_act(state)[0]
        moves = engine.legal_moves(state, seat)
        state, _events = engine.apply(state, seat, moves[rng.randbelow(len(moves))])
        done += 1
    return engine, state


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_before_the_end_it_is_the_spectators_view_and_every_hand(game):
    engine, state = _played(game, 3, 12)
    assert not engine.is_over(state)
    full, spectator = engine.full_view(state), engine.view(state, None)
    if game == "han":
        assert full["hands"] == state.hands and full["pile"] == state.pile
        assert {k: v for k, v in full.items() if k not in ("hands", "pile")} == spectator
    else:
        for seat, entry in enumerate(full["seats"]):
            assert [card["id"] for card in entry["hand"]] == state.hands[seat]
            assert [card["id"] for card in entry["face_down"]] == state.face_down[seat]
        stripped = {**full, "seats": [{k: v for k, v in entry.items()
                                       if k not in ("hand", "face_down")}
                                      for entry in full["seats"]]}
        assert stripped == spectator
    assert "hands" not in spectator  # the spectator still sees none of it


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_at_the_end_it_is_the_spectators_view(game):
    engine, state = _played(game, 2, None)
    assert engine.is_over(state)
    assert engine.full_view(state) == engine.view(state, None)
