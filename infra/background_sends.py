"""Sends that follow a commit, off the committing thread: one sender thread per process
runs them in the order they were handed over.

What goes out after a commit (a match's Pub/Sub message and group sends, its Celery tasks:
games/live/, games/dispatch.py) costs a round trip to Redis and kombu's CPU each. The
thread that committed has someone waiting on it (a socket's ack, a REST answer, the next
bot move of a worker): it hands the sends over here and goes on. One thread keeps their
order (a move's publication before the task of the bot that answers it), and a send that
fails is logged and never reaches the committer.

A process forked after the thread started (a Celery prefork child) starts its own. At
exit, sends still queued get ``EXIT_DRAIN_SECONDS`` to go; one lost there (a process
killed) is what the sweeps catch (docs/operations.md "Worker resilience").
"""

from __future__ import annotations

import atexit
import logging
import os
import queue
import threading
from collections.abc import Callable

logger = logging.getLogger(__name__)

#: how long an exiting process waits for its queued sends
EXIT_DRAIN_SECONDS = 2.0

_lock = threading.Lock()
_queue: queue.SimpleQueue | None = None
_pid: int | None = None


def send_in_background(job: Callable[[], None]) -> None:
    """Run ``job()`` on this process's sender thread, after every job handed over before
    it; returns at once. A job that raises is logged."""
    _sender_queue().put(job)


def wait_until_sent(timeout: float = 5.0) -> bool:
    """Block until every job handed over so far has run (tests; the exit). False if that
    took longer than ``timeout``."""
    if _queue is None or _pid != os.getpid():
        return True
    done = threading.Event()
    _queue.put(done.set)
    return done.wait(timeout)


def _sender_queue() -> queue.SimpleQueue:
    global _queue, _pid
    if _queue is not None and _pid == os.getpid():
        return _queue
    with _lock:
        if _queue is None or _pid != os.getpid():
            _queue, _pid = queue.SimpleQueue(), os.getpid()
            threading.Thread(target=_run, args=(_queue,), name="background-sends",
                             daemon=True).start()
        return _queue


def _run(jobs: queue.SimpleQueue) -> None:
    while True:
        job = jobs.get()
        try:
            job()
        except Exception:  # noqa: BLE001 - a send never fails what was committed
            logger.exception("a background send failed")


atexit.register(wait_until_sent, EXIT_DRAIN_SECONDS)
