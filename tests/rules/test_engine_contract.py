"""The shared pieces of the engine contract (rules/engine.py): what every game relies on."""

import pytest

from rules import IllegalMove, get_engine
from rules.rng import SeededRng


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_an_illegal_move_quoting_a_huge_value_gets_a_bounded_message(game):
    engine = get_engine(game)
    state = engine.setup(engine.describe()["players"]["max"], {}, "bounded-message")
    seat = engine.to_act(state)[0]
    huge = "x" * 5000
    with pytest.raises(IllegalMove) as raised:
        engine.apply(state, seat, {"type": huge})
    assert raised.value.code
    assert len(raised.value.message) <= IllegalMove.MAX_MESSAGE_LENGTH
    assert raised.value.message.endswith("...")


def test_short_messages_are_kept_whole():
    assert IllegalMove("x", "Card red is not in your hand.").message == \
        "Card red is not in your hand."


@pytest.mark.parametrize(("game", "players"), [("han", 2), ("han", 4), ("hansa", 2), ("hansa", 4)])
def test_playout_moves_are_legal_and_reach_every_kind_of_move(game, players):
    """``playout_move`` (the search bots' rollouts) draws only legal moves, over whole
    games, and every kind of move the seat could make turns up."""
    engine = get_engine(game)
    rng = SeededRng(f"playout-{game}-{players}")
    kinds_legal, kinds_drawn = set(), set()
    for game_number in range(3):
        state = engine.setup(players, {}, f"playout-{game_number}")
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            legal = engine.legal_moves(state, seat)
            move = engine.playout_move(state, seat, rng)
            assert move in legal
            kinds_legal |= {m["type"] for m in legal}
            kinds_drawn.add(move["type"])
            state, _ = engine.apply(state, seat, move)
    assert kinds_drawn == kinds_legal


def test_hansa_playouts_trade_about_as_often_as_they_attend_parliament():
    """Uniform over the legal moves would almost always attend Parliament (dozens of
    variants per card against one or two Trades); playouts weigh the two evenly."""
    engine = get_engine("hansa")
    state = engine.setup(3, {}, "playout-share")
    while state.phase != "turns":  # past the simultaneous keep
        seat = engine.to_act(state)[0]
        state, _ = engine.apply(state, seat, engine.legal_moves(state, seat)[0])
    seat = engine.to_act(state)[0]
    legal = engine.legal_moves(state, seat)
    assert sum(m["type"] == "trade" for m in legal) * 5 < len(legal)
    rng = SeededRng("share")
    trades = sum(engine.playout_move(state, seat, rng)["type"] == "trade" for _ in range(400))
    assert 150 < trades < 250


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_a_drawing_legend_is_pairs_of_texts_for_a_drawn_game_only(game):
    # the service shows it under the board without knowing the game (games/admin/glance.py)
    engine = get_engine(game)
    legend = engine.drawing_legend()
    assert all(isinstance(label, str) and isinstance(meaning, str) and label and meaning
               for label, meaning in legend)
    assert (legend == []) == (game == "han")  # Han's drawing explains itself
