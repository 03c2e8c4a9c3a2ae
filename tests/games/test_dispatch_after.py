"""Sends held back, against the real broker.

``dispatch.sends_after``: a caller that answers before its follow-up work (a move over the
play socket) keeps the commit's task sends back until its block ends: nothing is queued
inside the block, everything is queued, in order, when it ends, also when it ends by an
exception; nested blocks send once, at the outermost end.

``dispatch.bot_turn_played_here``: a worker playing a bot's turn holds that one bot's next
turn back; it either takes it (nothing is sent) or the block sends it as it ends."""

from __future__ import annotations

import pytest

from games import dispatch
from tests.games.support import queued_tasks


def test_sends_wait_for_the_end_of_the_block_and_keep_their_order(queues):
    with dispatch.sends_after():
        dispatch.enqueue_bot_turn(7, 1, 12)
        dispatch.enqueue_scoring(7)
        assert queued_tasks() == []
    assert queued_tasks() == [(dispatch.SCORING_TASK, [7]), (dispatch.BOT_TURN_TASK, [7, 1, 12])]


def test_outside_a_block_a_send_goes_at_once(queues):
    dispatch.enqueue_scoring(8)
    assert queued_tasks() == [(dispatch.SCORING_TASK, [8])]


def test_an_exception_in_the_block_still_sends_what_was_held(queues):
    with pytest.raises(RuntimeError), dispatch.sends_after():
        dispatch.enqueue_scoring(9)
        raise RuntimeError("after the commit")
    assert queued_tasks() == [(dispatch.SCORING_TASK, [9])]


def test_nested_blocks_send_once_at_the_outermost_end(queues):
    with dispatch.sends_after():
        with dispatch.sends_after():
            dispatch.enqueue_scoring(10)
        assert queued_tasks() == []
    assert queued_tasks() == [(dispatch.SCORING_TASK, [10])]


def test_a_bot_turn_played_here_holds_only_that_bots_next_turn(queues):
    with dispatch.bot_turn_played_here(7, 1) as held:
        dispatch.enqueue_bot_turn(7, 1, 12)
        dispatch.enqueue_bot_turn(7, 0, 12)  # another seat's turn goes at once
        dispatch.enqueue_bot_turn(8, 1, 3)  # so does another match's
        assert held.ply == 12
        assert queued_tasks() == [(dispatch.BOT_TURN_TASK, [7, 0, 12]),
                                  (dispatch.BOT_TURN_TASK, [8, 1, 3])]
    assert queued_tasks()[-1] == (dispatch.BOT_TURN_TASK, [7, 1, 12])


def test_a_taken_turn_is_not_sent(queues):
    with dispatch.bot_turn_played_here(7, 1) as held:
        dispatch.enqueue_bot_turn(7, 1, 12)
        assert held.take() == 12
        dispatch.enqueue_bot_turn(7, 1, 13)
        assert held.take() == 13
    assert queued_tasks() == []
    with pytest.raises(LookupError):
        held.take()


def test_a_block_ended_by_an_exception_sends_the_turn_it_took_or_holds(queues):
    # the taken move failed before its commit: the turn goes back to the broker
    with pytest.raises(RuntimeError), dispatch.bot_turn_played_here(7, 1) as held:
        dispatch.enqueue_bot_turn(7, 1, 12)
        held.take()
        raise RuntimeError("the move at ply 12 did not land")
    assert queued_tasks() == [(dispatch.BOT_TURN_TASK, [7, 1, 12])]
    # the taken move landed and held the next: that one goes
    with pytest.raises(RuntimeError), dispatch.bot_turn_played_here(9, 1) as held:
        dispatch.enqueue_bot_turn(9, 1, 4)
        held.take()
        dispatch.enqueue_bot_turn(9, 1, 5)
        raise RuntimeError("after the commit of ply 4")
    assert queued_tasks()[-1] == (dispatch.BOT_TURN_TASK, [9, 1, 5])
    assert len(queued_tasks()) == 2


def test_the_hold_is_undone_when_the_block_ends(queues):
    with dispatch.bot_turn_played_here(7, 1):
        pass
    dispatch.enqueue_bot_turn(7, 1, 12)
    assert queued_tasks() == [(dispatch.BOT_TURN_TASK, [7, 1, 12])]
