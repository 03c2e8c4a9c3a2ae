"""Telling live subscribers that a match changed.

The message names the match, its ply and status only: it carries nothing hidden, so each
subscriber re-reads what it may see through ``games.matches.selectors``. Publishing is best effort:
an unreachable channel layer is logged and never fails the move that triggered it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.matches import play_announcements

logger = logging.getLogger(__name__)

#: the ``type`` of the channel-layer message; consumers implement a ``match_update`` handler
MATCH_UPDATE_TYPE = play_announcements.MATCH_UPDATE_TYPE


def match_group_name(match_id: int) -> str:
    """The channel-layer group every subscriber of ``match_id`` joins."""
    return f"match-{match_id}"


def publish_match_update(match_id: int, ply: int, status: str | None = None) -> bool:
    """Send ``{"type": "match.update", "match_id", "ply", "status"}`` to the match's group.

    Returns False (and logs) when the channel layer is missing or unreachable."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        async_to_sync(layer.group_send)(
            match_group_name(match_id),
            {"type": MATCH_UPDATE_TYPE, "match_id": match_id, "ply": ply, "status": status},
        )
        return True
    except Exception:  # noqa: BLE001 - a notification must never break a committed move
        logger.warning("could not publish update of match %s at ply %s", match_id, ply,
                       exc_info=True)
        return False


# -- fire and forget --------------------------------------------------------------------------
# A move's request should not wait for Redis: the update is handed to one background event
# loop per process, which also keeps the channel layer's connection open between moves
# (async_to_sync would open a fresh loop, and so a fresh connection, every time).
_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        # A forked worker inherits the object but not the thread: start its own.
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            threading.Thread(target=_loop.run_forever, name="match-updates",
                             daemon=True).start()
        return _loop


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("could not publish a match update", exc_info=future.exception())


def publish_match_update_soon(match_id: int, ply: int, status: str | None = None) -> None:
    """Like ``publish_match_update`` but returns at once, to the subscribers and to the
    play hubs (unless ``announced_by_caller``); failures are logged."""
    message = {"type": MATCH_UPDATE_TYPE, "match_id": match_id, "ply": ply, "status": status}
    publish_soon(match_group_name(match_id), message)
    if not play_announcements.is_announced_by_caller(match_id):
        _soon(play_announcements.publish(match_id, message), f"play hubs of {match_id}")


def _soon(coroutine, what: str) -> None:
    """Run ``coroutine`` on the background loop; failures are logged, never raised."""
    try:
        future = asyncio.run_coroutine_threadsafe(coroutine, _background_loop())
        future.add_done_callback(_log_failure)
    except Exception:  # noqa: BLE001 - a notification must never break a committed change
        coroutine.close()
        logger.warning("could not publish to %s", what, exc_info=True)


def publish_soon(group: str, message: dict) -> None:
    """Send ``message`` to channel-layer ``group`` from the background loop (as
    ``publish_match_update_soon``); failures are logged, never raised."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return
        future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                                  _background_loop())
        future.add_done_callback(_log_failure)
    except Exception:  # noqa: BLE001 - a notification must never break a committed change
        logger.warning("could not publish to %s", group, exc_info=True)
