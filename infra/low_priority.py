"""Background work that yields the CPU to the work people wait for.

A Celery worker shares the machine's cores with the web processes: on two cores, the
webhooks' drain (issue 42) took CPU from the moves being acknowledged, and the move ack's
p99 grew with it. ``run_yielding`` runs a function in a thread of its own whose CPU
niceness is raised by ``niceness``: on Linux the niceness is a thread's own (setpriority
on a thread id; threads it starts inherit it), so the scheduler gives the web processes
the core first while this thread waits, and the rest of the worker keeps its priority. The
thread ends with the function, so nothing has to lower its niceness again (which an
unprivileged process may not do).

The function's database connections are this thread's: closed (given back to the pool)
when it ends. In eager mode (tasks run inline, inside the caller's transaction) the
function runs on the caller's thread, which alone sees that transaction's rows.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from typing import TypeVar

from celery import current_app
from django.db import connections

Result = TypeVar("Result")

def lower_this_thread(niceness: int) -> None:
    """Raise the calling thread's niceness by ``niceness`` (``os.nice``: on Linux the
    calling thread's own, capped at 19, as config/celery.py's WORKER_NICE relies on);
    nothing where the platform does not allow it."""
    if niceness <= 0:
        return
    try:
        os.nice(niceness)
    except (OSError, AttributeError):
        pass  # not permitted here: the work runs at the worker's own priority


def run_yielding(niceness: int, function: Callable[[], Result], name: str) -> Result:
    """``function()`` on a thread ``niceness`` nicer than the worker's, waited for; what
    it raises is raised here."""
    if niceness <= 0 or current_app.conf.task_always_eager:
        return function()
    outcome: dict[str, object] = {}

    def body() -> None:
        lower_this_thread(niceness)
        try:
            outcome["result"] = function()
        except BaseException as error:  # noqa: BLE001 - handed to the caller
            outcome["error"] = error
        finally:
            connections.close_all()

    thread = threading.Thread(target=body, name=name, daemon=True)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["result"]
