"""infra/low_priority.py: background work on a thread of its own, nicer than the worker's
(read back from /proc, the kernel's own account of each thread), its result and its
errors handed back, the calling thread's niceness untouched."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from infra.low_priority import run_yielding


def _niceness(thread_id: int) -> int:
    stat = Path(f"/proc/self/task/{thread_id}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[16])  # field 19: nice


@pytest.fixture
def not_eager(settings):
    from celery import current_app

    assert not current_app.conf.task_always_eager  # as in every test (tests/games/conftest.py)


def test_the_work_runs_nicer_on_its_own_thread_and_the_caller_keeps_its_priority(not_eager):
    caller = threading.get_native_id()
    before = _niceness(caller)
    seen = {}

    def work():
        seen["thread"] = threading.get_native_id()
        seen["nice"] = _niceness(seen["thread"])
        return "done"

    assert run_yielding(10, work, "test-yield") == "done"
    assert seen["thread"] != caller
    assert seen["nice"] == min(19, before + 10)
    assert _niceness(caller) == before


def test_what_the_work_raises_is_raised_to_the_caller(not_eager):
    def work():
        raise LookupError("nothing here")

    with pytest.raises(LookupError, match="nothing here"):
        run_yielding(5, work, "test-yield")


def test_niceness_zero_runs_on_the_caller_s_thread(not_eager):
    assert run_yielding(0, threading.get_native_id, "test-yield") == threading.get_native_id()
