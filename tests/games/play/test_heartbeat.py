"""The heartbeat (docs/play.md): a ``ping`` once nothing else was sent for
``heartbeat_seconds``, so a client hears something at least that often, and a socket kept
busy by its matches is sent no ping at all."""

from __future__ import annotations

import asyncio
import json

from games.play.connection import PlayConnection

INTERVAL = 0.4


def _socket() -> PlayConnection:
    return PlayConnection({"type": "websocket", "headers": [], "client": ("10.0.0.1", 1)},
                          None, None)


def _ops(socket: PlayConnection) -> list[str]:
    ops = []
    while not socket._queue.empty():
        ops.append(json.loads(socket._queue.get_nowait())["op"])
    return ops


async def _beating(socket: PlayConnection, during) -> None:
    heartbeat = asyncio.get_running_loop().create_task(socket._heartbeat())
    try:
        await during()
    finally:
        heartbeat.cancel()


def test_an_idle_socket_is_pinged_every_interval(settings):
    settings.PLAY_HEARTBEAT_SECONDS = INTERVAL
    socket = _socket()
    asyncio.run(_beating(socket, lambda: asyncio.sleep(INTERVAL * 2.5)))
    assert _ops(socket) == ["ping", "ping"]


def test_a_socket_sent_frames_more_often_than_the_interval_is_not_pinged(settings):
    settings.PLAY_HEARTBEAT_SECONDS = INTERVAL
    socket = _socket()

    async def busy() -> None:
        for _ in range(8):
            await asyncio.sleep(INTERVAL / 3)
            socket.enqueue('{"op":"update"}')

    asyncio.run(_beating(socket, busy))
    assert _ops(socket) == ["update"] * 8


def test_the_ping_comes_an_interval_after_the_last_frame(settings):
    settings.PLAY_HEARTBEAT_SECONDS = INTERVAL
    socket = _socket()

    async def busy_then_quiet() -> None:
        await asyncio.sleep(INTERVAL * 0.8)
        socket.enqueue('{"op":"update"}')  # the clock starts again here
        await asyncio.sleep(INTERVAL * 0.6)  # 1.4 intervals in: no ping yet
        assert _ops(socket) == ["update"]
        await asyncio.sleep(INTERVAL * 0.7)  # 1.1 intervals after the update

    asyncio.run(_beating(socket, busy_then_quiet))
    assert _ops(socket) == ["ping"]
