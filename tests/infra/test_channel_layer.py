"""The channel layer outlives a Redis outage (infra/channel_layer.py; issue 21, item 1).

channels-redis raised on every connection error: a websocket's receive loop died with the
outage, a subscription that joined its group during it failed, and a Redis that restarted
empty had forgotten every membership, so a socket that lived on never heard of a change
again. Against a Redis server of the test's own (started, stopped and started again
here, never this checkout's), the layer now waits the outage out, joins what was asked
meanwhile, adds every membership again once Redis answers, and wakes each channel with
``layer.resumed`` so its reader re-reads what it shows."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import time

import pytest

from infra import channel_layer
from infra.channel_layer import RESUMED_TYPE, ResilientRedisChannelLayer
from tests.ports import free_port, served_by

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


class PrivateRedis:
    """A redis-server on a free loopback port, with no persistence (as ours runs)."""

    def __init__(self) -> None:
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--bind", "127.0.0.1", "--port", str(self.port), "--save", "",
             "--appendonly", "no"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if not served_by(self.port, self.process.pid):  # another Redis must not pass
                time.sleep(0.05)
                continue
            with contextlib.suppress(OSError), socket.create_connection(
                    ("127.0.0.1", self.port), timeout=0.2):
                return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)


@pytest.fixture
def private_redis(monkeypatch):
    if not os.path.exists(REDIS_SERVER):
        pytest.skip("redis-server is not installed")
    monkeypatch.setattr(channel_layer, "RETRY_SECONDS", 0.1)
    server = PrivateRedis()
    server.start()
    yield server
    server.stop()


def _layer(port: int) -> ResilientRedisChannelLayer:
    return ResilientRedisChannelLayer(hosts=[{"address": f"redis://127.0.0.1:{port}/0",
                                              "socket_connect_timeout": 1}])


def test_a_reader_waits_out_an_outage_and_hears_again_after_a_restart(private_redis):
    async def scenario():
        layer, publisher = _layer(private_redis.port), _layer(private_redis.port)
        reader = await layer.new_channel()
        await layer.group_add("match-1", reader)
        receiving = asyncio.ensure_future(layer.receive(reader))

        private_redis.stop()  # Redis goes away, and comes back empty
        await asyncio.sleep(0.5)
        assert not receiving.done(), "the reader died with the outage"
        # joining during the outage does not fail: it takes effect when Redis is back
        late = await layer.new_channel()
        await layer.group_add("match-2", late)
        private_redis.start()

        # each channel first hears that it may have missed something ...
        assert await asyncio.wait_for(receiving, 10) == {"type": RESUMED_TYPE}
        assert await asyncio.wait_for(layer.receive(late), 10) == {"type": RESUMED_TYPE}
        # ... and both memberships are back in the restarted Redis
        await publisher.group_send("match-1", {"type": "match.update", "ply": 7})
        await publisher.group_send("match-2", {"type": "match.update", "ply": 8})
        assert (await asyncio.wait_for(layer.receive(reader), 10))["ply"] == 7
        assert (await asyncio.wait_for(layer.receive(late), 10))["ply"] == 8
        await layer.group_discard("match-1", reader)
        await layer.group_discard("match-2", late)
        assert layer.membership_count() == 0

    asyncio.run(scenario())


def test_publishing_while_redis_is_down_still_raises_for_its_caller_to_log(private_redis):
    async def scenario():
        private_redis.stop()
        with pytest.raises(Exception) as failed:
            await _layer(private_redis.port).group_send("match-1", {"type": "match.update"})
        return failed.value

    from infra.outages import REDIS_UNAVAILABLE

    assert isinstance(asyncio.run(scenario()), REDIS_UNAVAILABLE)
