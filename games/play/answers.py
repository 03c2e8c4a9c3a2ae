"""What a move and a chat op share on the play socket: running the service in the hub's
threads with a busy database turned into the same refusal as any other, and the
``refused`` frame an ``ApiError`` becomes (docs/play.md)."""

from __future__ import annotations

import time

from django.db import OperationalError

from games.play.hub import hub
from games.play.protocol import frame
from infra.api_errors import ApiError, DatabaseBusy
from infra.observability import move_phases
from infra.outages import database_busy


async def run_service(function, *args):
    """``function(*args)`` in the hub's threads. The match's lock or the statement
    outlasting the runtime role's bound is ``DatabaseBusy``: refused like any move,
    nothing written."""
    try:
        if move_phases.ON:
            return await _timed(function, *args)
        return await hub().run(function, *args)
    except OperationalError as exc:
        if not database_busy(exc):
            raise
        raise database_busy_refusal() from None


async def _timed(function, *args):
    """``run_service`` with the job's phases recorded (infra/observability/move_phases.py)."""
    handed_over, marks = time.perf_counter(), []

    def run(*args):
        move_phases.begin()
        try:
            return function(*args)
        finally:
            marks[:] = move_phases.finish() or []
    try:
        return await hub().run(run, *args)
    finally:
        move_phases.record(function.__name__, handed_over, marks, time.perf_counter())


def database_busy_refusal() -> DatabaseBusy:
    """The one answer to a busy database on the socket, whichever op met it."""
    return DatabaseBusy(details={"retry_after": DatabaseBusy.retry_after})


def refused_frame(ref, match_id: int, exc: ApiError) -> str:
    return frame("refused", ref, match=str(match_id), status=exc.status_code,
                 error={"code": exc.code, "message": exc.message,
                        "details": exc.details or {}})
