"""The shared pieces of the engine contract (rules/engine.py): what every game relies on."""

import pytest

from rules import IllegalMove, get_engine


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
