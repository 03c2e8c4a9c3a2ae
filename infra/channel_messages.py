"""Sending channel-layer messages from synchronous code without waiting for Redis.

A move's request (or a token's revocation) should not wait for Redis: messages are handed
to one background event loop per process, which also keeps the channel layer's connection
open between messages (``async_to_sync`` would open a fresh loop, and so a fresh
connection, every time). Failures are logged, never raised: a message is a notification,
and whoever receives it re-reads the database, which is the truth (while Redis is down
every long-lived connection re-reads when it returns: infra/channel_layer.py).

A match's change sends its group messages with the play hubs' PUBLISH, in one round trip
(infra/pubsub.py ``publish_with_groups``, which asks which groups have a member and then
sends to those through ``send_to_groups``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import threading

from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)

_loop_lock = threading.Lock()
_loop: asyncio.AbstractEventLoop | None = None
_loop_pid: int | None = None


def send_to_group_soon(group: str, message: dict) -> concurrent.futures.Future | None:
    """Send ``message`` to channel-layer ``group`` from the background loop and return at
    once: the future of the send (None without a channel layer), which a caller may wait
    on, for a bounded time, when the order of messages matters."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return None
        # most groups have no member: asking costs less than sending (infra/channel_layer.py)
        may_have_members = getattr(layer, "may_have_members", None)
        if may_have_members is not None and not may_have_members(group):
            return None
        return _send(layer, group, message)
    except Exception:  # noqa: BLE001 - a notification must never break a committed change
        logger.warning("could not send to %s", group, exc_info=True)
        return None


def send_to_groups(sends: list[tuple[str, dict]],
                   have_members: list[bool] | None = None) -> None:
    """Send each (group, message) of ``sends``: to the groups ``have_members`` says may
    have a member (the caller asked Redis for them all at once), or, without it, each
    asked about on its own as ``send_to_group_soon`` does."""
    if have_members is None:
        for group, message in sends:
            send_to_group_soon(group, message)
        return
    layer = get_channel_layer()
    for (group, message), present in zip(sends, have_members, strict=True):
        if present:
            try:
                _send(layer, group, message)
            except Exception:  # noqa: BLE001 - as send_to_group_soon
                logger.warning("could not send to %s", group, exc_info=True)


def _send(layer, group: str, message: dict) -> concurrent.futures.Future:
    future = asyncio.run_coroutine_threadsafe(layer.group_send(group, message),
                                              _background_loop())
    future.add_done_callback(_log_failure)
    return future


def run_soon(coroutine, what: str) -> concurrent.futures.Future | None:
    """Run ``coroutine`` (a send to Redis of another kind: the play hubs' Pub/Sub) on the
    same background loop; ``what`` names it in the log. Failures are logged, never
    raised."""
    try:
        future = asyncio.run_coroutine_threadsafe(coroutine, _background_loop())
        future.add_done_callback(_log_failure)
        return future
    except Exception:  # noqa: BLE001 - a notification must never break a committed change
        coroutine.close()
        logger.warning("could not send to %s", what, exc_info=True)
        return None


def _background_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _loop_lock:
        # A forked worker inherits the object but not the thread: start its own.
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            _loop = asyncio.new_event_loop()
            _loop_pid = os.getpid()
            threading.Thread(target=_loop.run_forever, name="channel-messages",
                             daemon=True).start()
        return _loop


def _log_failure(future) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.warning("could not send a channel-layer message", exc_info=future.exception())
