"""``PlayThreads.run_handing_over`` (games/play/threads.py): a play thread hands a move's pushes to
its socket as soon as they are built and then sends the move's notifications; the socket
must get the result at the hand-over, a failure before it, and never one after it."""

from __future__ import annotations

import asyncio
import threading

import pytest

from games.play.threads import PlayThreads


def test_the_result_comes_at_the_hand_over_while_the_thread_goes_on():
    finish = threading.Event()
    finished = threading.Event()

    def job(hand_over, value):
        hand_over(value * 2)
        finish.wait(5)  # the notifications' round trip, still under way
        finished.set()

    async def scenario():
        result = await PlayThreads().run_handing_over(job, 21)
        still_running = not finished.is_set()
        finish.set()
        return result, still_running

    assert asyncio.run(scenario()) == (42, True)
    assert finished.wait(5)


def test_a_failure_before_the_hand_over_is_the_callers():
    def job(hand_over):
        raise ValueError("illegal move")

    async def scenario():
        await PlayThreads().run_handing_over(job)

    with pytest.raises(ValueError, match="illegal move"):
        asyncio.run(scenario())


def test_a_failure_after_the_hand_over_is_logged_not_raised(caplog):
    def job(hand_over):
        hand_over("pushed")
        raise RuntimeError("redis away")

    async def scenario():
        result = await PlayThreads().run_handing_over(job)
        await asyncio.sleep(0.2)  # the job's end reaches the loop
        return result

    assert asyncio.run(scenario()) == "pushed"
    assert "failed after handing its result over" in caplog.text


def test_a_job_that_never_hands_over_gives_its_return():
    async def scenario():
        return await PlayThreads().run_handing_over(lambda hand_over: "returned")

    assert asyncio.run(scenario()) == "returned"
