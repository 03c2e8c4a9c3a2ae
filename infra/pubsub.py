"""Plain Redis Pub/Sub on the channel layer's Redis: for messages every web process must
hear at once and that nobody needs kept (a process that was not listening catches up
from the database).

Plain Pub/Sub rather than the channel layer: a channel-layer group send is several Redis
commands and a script per message, and a receive two more; for the play hubs' per-move
messages that cost more CPU than the move itself (py-spy, docs/capacity.md). The play
hubs (games/play/hub.py) hold the only subscriber connection of their process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from functools import partial

import orjson
import redis.asyncio
from channels.layers import get_channel_layer
from django.conf import settings

from infra import wire
from infra.background_sends import send_in_background
from infra.channel_messages import run_soon, send_to_groups

#: the channel on which revoked access is announced (accounts/revocation.py): every play
#: hub listens, and ends the sockets of the user named
ACCESS_REVOKED_CHANNEL = "access-revoked"


def redis_url() -> str:
    """The channel layer's Redis (a URL, or a host's options with its ``address``:
    config/settings.py)."""
    host = settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"][0]
    return host["address"] if isinstance(host, dict) else host


def encode(message: dict) -> bytes:
    """As the play socket's frames are (infra/wire.py): what was built in one process
    reads the same in another."""
    return wire.dumps(message)


def decode(data: bytes) -> dict | None:
    try:
        message = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return message if isinstance(message, dict) else None


_clients: dict[int, redis.asyncio.Redis] = {}


def _client() -> redis.asyncio.Redis:
    """One client per event loop (the background loop of infra/channel_messages.py)."""
    loop = asyncio.get_running_loop()
    client = _clients.get(id(loop))
    if client is None:
        client = _clients[id(loop)] = redis.asyncio.Redis.from_url(
            redis_url(), socket_timeout=2, socket_connect_timeout=2)
    return client


async def publish(channel: str, message: dict) -> None:
    """PUBLISH ``message`` on ``channel`` (from a coroutine)."""
    await _client().publish(channel, encode(message))


def publish_soon(channel: str, message: dict) -> concurrent.futures.Future | None:
    """PUBLISH from a thread, returning at once: the background loop sends it (a failure
    is logged); the future lets a caller wait a bounded time when order matters."""
    return run_soon(publish(channel, message), f"Pub/Sub channel {channel}")


def publish_with_groups(channel: str, message: dict,
                        groups: list[tuple[str, dict]]) -> None:
    """PUBLISH ``message`` on ``channel`` and send each (group, message) of ``groups`` to
    the channel layer, from this process's sender thread (infra/background_sends.py),
    returning at once: whether each group has a member is asked in the same round trip as
    the PUBLISH (the channel layer's ``members_and_publish``), and only those are sent to,
    from the background loop. With another channel layer, each goes as it would on its
    own."""
    send_in_background(partial(_publish_with_groups_now, channel, message, groups))


def _publish_with_groups_now(channel: str, message: dict,
                             groups: list[tuple[str, dict]]) -> None:
    layer = get_channel_layer()
    combined = getattr(layer, "members_and_publish", None)
    if combined is None:
        send_to_groups(groups)
        publish_soon(channel, message)
        return
    have_members = combined([group for group, _message in groups], channel, encode(message))
    send_to_groups(groups, have_members)
