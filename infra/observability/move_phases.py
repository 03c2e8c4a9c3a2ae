"""Where a socket move's wall time goes, phase by phase: a bench's instrument, off unless
``MOVE_PHASES_DIR`` names a directory (bench/move_phases_report.py reads it; docs/capacity.md
"A paced move, phase by phase").

A sampling profiler shows where CPU goes; a move's latency at a human pace is mostly
waiting (for PostgreSQL, for the interpreter's lock, for a thread to wake), and the
waits are what differ between a busy loop and a paced one. So the move's thread marks the
moments it passes (``mark``), the event loop adds when it handed the job over and when
it had the answer back (``record``), and each process appends its records, one JSON line
per move, to ``phases-<pid>.jsonl`` in that directory every ``MOVE_PHASES_FLUSH_EVERY``
(100) moves.

Off (the default), ``mark`` and ``begin`` return after one test of a module global: the
hot path pays nothing measurable.
"""

from __future__ import annotations

import json
import os
import threading
import time

from django.db import transaction

_DIRECTORY = os.environ.get("MOVE_PHASES_DIR", "")
ON = bool(_DIRECTORY)
_FLUSH_EVERY = int(os.environ.get("MOVE_PHASES_FLUSH_EVERY", "100"))

_thread = threading.local()
_records: list[dict] = []
_records_lock = threading.Lock()


def begin() -> None:
    """The job starts on its thread: marks from here on belong to it."""
    if ON:
        _thread.marks = [("start", time.perf_counter())]


def mark(name: str) -> None:
    """The current job has reached ``name`` (nothing when off, or outside a job)."""
    if ON:
        marks = getattr(_thread, "marks", None)
        if marks is not None:
            marks.append((name, time.perf_counter()))


def mark_when_committed() -> None:
    """Mark ``committed`` once the current transaction commits, before the receivers
    the change registers after this call (Django runs them in order)."""
    if ON:
        transaction.on_commit(lambda: mark("committed"))


def finish() -> list | None:
    """The job ends on its thread: its marks, closed by ``end``."""
    if not ON:
        return None
    marks = getattr(_thread, "marks", None)
    _thread.marks = None
    if marks is not None:
        marks.append(("end", time.perf_counter()))
    return marks


def record(operation: str, handed_over: float, marks: list | None, back: float) -> None:
    """One job's phases: ``handed_over`` when the loop gave it to a thread, ``back`` when
    the loop had its answer (``time.perf_counter``), the thread's ``marks`` between."""
    if not ON or not marks:
        return
    entry = {"op": operation, "at": handed_over,
             "phases": _phases([("handed_over", handed_over), *marks, ("back", back)])}
    with _records_lock:
        _records.append(entry)
        if len(_records) < _FLUSH_EVERY:
            return
        batch = _records[:]
        _records.clear()
    _append(batch)


def _phases(marks: list) -> dict[str, float]:
    """Milliseconds from each mark to the next, named by the later one."""
    return {name: round((at - marks[index][1]) * 1000, 4)
            for index, (name, at) in enumerate(marks[1:])}


def _append(batch: list[dict]) -> None:
    path = os.path.join(_DIRECTORY, f"phases-{os.getpid()}.jsonl")
    with open(path, "a", encoding="utf-8") as out:
        out.writelines(json.dumps(entry) + "\n" for entry in batch)
