"""``dispatch.sends_after``: a caller that answers before its follow-up work (a move over
the play socket) keeps the commit's task sends back until its block ends. Against the real
broker: nothing is queued inside the block, everything is queued, in order, when it ends,
also when it ends by an exception; nested blocks send once, at the outermost end."""

from __future__ import annotations

import base64
import json

import pytest

from config.celery import app as celery_app
from games import dispatch
from tests.games.support import TEST_BOT_QUEUE, TEST_QUEUE
from tests.workers import purge_test_queue


def _queued() -> list[tuple[str, list]]:
    """(task name, args) of every message in the test queues, oldest first (left pops)."""
    found = []
    with celery_app.connection_for_write() as conn:
        client = conn.default_channel.client
        for queue in (TEST_QUEUE, TEST_BOT_QUEUE):
            # kombu LPUSHes and consumers BRPOP: the oldest message is at the right end
            for raw in reversed(client.lrange(queue, 0, -1)):
                message = json.loads(raw)
                body = json.loads(base64.b64decode(message["body"]))
                found.append((message["headers"]["task"], body[0]))
    return found


@pytest.fixture
def queues():
    assert not celery_app.conf.task_always_eager  # tests send to the broker unless told
    purge_test_queue()
    yield
    purge_test_queue()


def test_sends_wait_for_the_end_of_the_block_and_keep_their_order(queues):
    with dispatch.sends_after():
        dispatch.enqueue_bot_turn(7, 1, 12)
        dispatch.enqueue_scoring(7)
        assert _queued() == []
    assert _queued() == [(dispatch.SCORING_TASK, [7]), (dispatch.BOT_TURN_TASK, [7, 1, 12])]


def test_outside_a_block_a_send_goes_at_once(queues):
    dispatch.enqueue_scoring(8)
    assert _queued() == [(dispatch.SCORING_TASK, [8])]


def test_an_exception_in_the_block_still_sends_what_was_held(queues):
    with pytest.raises(RuntimeError), dispatch.sends_after():
        dispatch.enqueue_scoring(9)
        raise RuntimeError("after the commit")
    assert _queued() == [(dispatch.SCORING_TASK, [9])]


def test_nested_blocks_send_once_at_the_outermost_end(queues):
    with dispatch.sends_after():
        with dispatch.sends_after():
            dispatch.enqueue_scoring(10)
        assert _queued() == []
    assert _queued() == [(dispatch.SCORING_TASK, [10])]
