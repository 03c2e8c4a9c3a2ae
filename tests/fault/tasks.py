"""A task for the fault tests only, loaded into their workers with ``-I tests.fault.tasks``.

``hold`` notes each start in a file and then sleeps: a test knows when it is running and
can stop Redis or kill the worker while it is, and counts how often it was delivered."""

from __future__ import annotations

import os
import time

from celery import shared_task

HOLD = "tests.fault.hold"


@shared_task(name=HOLD, acks_late=True)
def hold(marker: str, seconds: float) -> None:
    with open(marker, "a") as out:
        out.write(f"{os.getpid()} {time.time()}\n")
    time.sleep(seconds)
