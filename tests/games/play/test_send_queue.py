"""A socket's send queue (games/play/send_queue.py): first in, first out; bounded (a full
queue refuses, which closes a slow reader's socket: games/play/sending.py); its writer
waits for the next frame and wakes when one is queued."""

import asyncio

import pytest

from games.play.send_queue import SendQueue


def test_first_in_first_out_within_its_bound():
    queue = SendQueue(2)
    assert queue.empty()
    queue.put_nowait("a")
    queue.put_nowait("b")
    with pytest.raises(asyncio.QueueFull):
        queue.put_nowait("c")
    assert [queue.get_nowait(), queue.get_nowait()] == ["a", "b"]
    assert queue.empty()
    with pytest.raises(asyncio.QueueEmpty):
        queue.get_nowait()


def test_the_writer_waits_for_the_next_frame_and_a_cancelled_wait_leaves_it_usable():
    async def scenario():
        queue = SendQueue(4)
        waiting = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        assert not waiting.done()
        queue.put_nowait("frame")
        assert await asyncio.wait_for(waiting, 1) == "frame"

        cancelled = asyncio.create_task(queue.get())
        await asyncio.sleep(0)
        cancelled.cancel()
        await asyncio.gather(cancelled, return_exceptions=True)
        queue.put_nowait("next")  # no waiter left behind to wake
        assert await asyncio.wait_for(queue.get(), 1) == "next"

    asyncio.run(scenario())
