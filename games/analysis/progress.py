"""Telling live subscribers how far an analysis has got: ``{"type": "analysis.progress",
"match_id", "status", "done", "total"}`` to the channel-layer group ``analysis-{id}``
(the GraphQL subscription ``analysisProgress`` listens to it). Only counts: an analysis
is of a finished match, whose every card may be shown, and the message holds none.
Best effort, like every live message: a channel layer that is away is logged, and the
analysis goes on."""

from __future__ import annotations

import threading
import time

from infra.channel_messages import send_to_group_soon

ANALYSIS_PROGRESS_TYPE = "analysis.progress"
#: a running analysis pushes at most this often (a decision can take a few milliseconds)
PUSH_INTERVAL_SECONDS = 0.5

_last_push: dict[int, float] = {}
_lock = threading.Lock()


def analysis_group_name(match_id: int) -> str:
    return f"analysis-{match_id}"


def publish(match_id: int, *, status: str, done: int, total: int) -> None:
    send_to_group_soon(analysis_group_name(match_id), {
        "type": ANALYSIS_PROGRESS_TYPE, "match_id": match_id, "status": str(status),
        "done": done, "total": total,
    })


def publish_throttled(match_id: int, *, status: str, done: int, total: int) -> None:
    """``publish`` unless this match's progress was pushed less than
    PUSH_INTERVAL_SECONDS ago."""
    now = time.monotonic()
    with _lock:
        if now - _last_push.get(match_id, -PUSH_INTERVAL_SECONDS) < PUSH_INTERVAL_SECONDS:
            return
        _last_push[match_id] = now
    publish(match_id, status=status, done=done, total=total)
