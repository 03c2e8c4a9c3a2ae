"""Telling the web processes' play hubs (games/play/hub.py) that a match changed, over
Redis Pub/Sub: one PUBLISH per change, read by every process subscribed to the match's
channel, and nothing kept for a process that was not listening (the hubs' resync check
reads the database for that).

Plain Pub/Sub rather than the channel layer: a channel-layer group send is several Redis
commands and a script per message, and a receive two more; under the peer bench that
cost more CPU than the move itself (py-spy, docs/capacity.md).

A change is announced by match, ply and status only (``MATCH_UPDATE_TYPE``): nothing
hidden, each hub reads what its sockets may see. A move made over a play socket is
announced by the socket's own process instead (``announced_by_caller``), with each
seat's push ready-made (``PLAY_FRAMES_TYPE``), so no other process reads the match.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import orjson
import redis.asyncio
from django.conf import settings

logger = logging.getLogger(__name__)

#: a change known by match, ply and status (the hubs read the rest)
MATCH_UPDATE_TYPE = "match.update"
#: a move's pushes, one per seat and one for spectators
PLAY_FRAMES_TYPE = "play.frames"

#: matches whose next change the caller announces itself (``announced_by_caller``)
_announced_by_caller: ContextVar[frozenset[int]] = ContextVar("announced_by_caller",
                                                               default=frozenset())


def play_channel(match_id: int) -> str:
    """The Pub/Sub channel of ``match_id``'s play hubs."""
    return f"{settings.PLAY_CHANNEL_PREFIX}{match_id}"


def redis_url() -> str:
    """The Redis the hubs listen on: the channel layer's (a URL, or a host's options with
    its ``address``: config/settings.py)."""
    host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
    return host["address"] if isinstance(host, dict) else host


def encode(message: dict) -> bytes:
    return orjson.dumps(message)


def decode(data: bytes) -> dict | None:
    try:
        message = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None


@contextmanager
def announced_by_caller(match_id: int) -> Iterator[None]:
    """Within this block, changes of ``match_id`` are not announced to the play hubs: the
    caller (a move made over a play socket) sends them each seat's push instead."""
    token = _announced_by_caller.set(_announced_by_caller.get() | {match_id})
    try:
        yield
    finally:
        _announced_by_caller.reset(token)


def is_announced_by_caller(match_id: int) -> bool:
    return match_id in _announced_by_caller.get()


# -- publishing from a thread (the services' on-commit hooks) ------------------------------
_clients: dict[int, redis.asyncio.Redis] = {}


def _client() -> redis.asyncio.Redis:
    """One client per event loop (the background loop of infra/channel_messages.py)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(id(loop))
    if client is None:
        client = _clients[id(loop)] = redis.asyncio.Redis.from_url(
            redis_url(), socket_timeout=2, socket_connect_timeout=2)
    return client


async def publish(match_id: int, message: dict) -> None:
    """PUBLISH ``message`` to the match's hubs (from a coroutine)."""
    await _client().publish(play_channel(match_id), encode(message))
