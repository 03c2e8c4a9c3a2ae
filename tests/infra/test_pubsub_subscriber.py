"""The play hubs' Pub/Sub subscriber (infra/pubsub_subscriber.py) on a real Redis: messages
reach the callback in order as they are read, a subscription is confirmed before
``subscribe`` returns, an unsubscribed channel is not heard, a bad callback does not end
the connection, and a lost or silent connection completes ``closed`` and fails what
awaited an answer. The hub's use of it (reconnecting, catching up) is in
tests/games/play/test_hub_pubsub.py."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio

from infra import pubsub, pubsub_subscriber
from infra.pubsub_subscriber import Subscriber, SubscriberLost


def _run(scenario):
    return asyncio.run(scenario())


async def _publisher() -> redis.asyncio.Redis:
    return redis.asyncio.Redis.from_url(pubsub.redis_url())


async def _eventually(condition) -> None:
    for _ in range(50):
        if condition():
            return
        await asyncio.sleep(0.02)


def test_messages_reach_the_callback_in_order_and_only_from_subscribed_channels():
    async def scenario():
        heard = []
        subscriber = await Subscriber.open(pubsub.redis_url(), ["t-sub-a", "t-sub-b"],
                                           lambda channel, data: heard.append((channel, data)))
        publisher = await _publisher()
        # subscribed once open returns: each PUBLISH reaches one subscriber at once
        receivers = [await publisher.publish("t-sub-a", b"1"),
                     await publisher.publish("t-sub-c", b"not followed"),
                     await publisher.publish("t-sub-b", b"2"),
                     await publisher.publish("t-sub-a", b"3" * 100_000)]
        await _eventually(lambda: len(heard) == 3)
        subscriber.close()
        await subscriber.closed
        await publisher.aclose()
        return receivers, heard

    receivers, heard = _run(scenario)
    assert receivers == [1, 0, 1, 1]
    assert heard == [(b"t-sub-a", b"1"), (b"t-sub-b", b"2"), (b"t-sub-a", b"3" * 100_000)]


def test_subscribe_returns_once_confirmed_and_unsubscribe_stops_the_messages():
    async def scenario():
        heard = []
        subscriber = await Subscriber.open(pubsub.redis_url(), ["t-sub-first"],
                                           lambda channel, data: heard.append(data))
        publisher = await _publisher()
        await subscriber.subscribe("t-sub-later")
        after_subscribe = await publisher.publish("t-sub-later", b"later")
        await subscriber.unsubscribe("t-sub-first")
        after_unsubscribe = await publisher.publish("t-sub-first", b"gone")
        await asyncio.sleep(0.1)
        subscriber.close()
        await publisher.aclose()
        return after_subscribe, after_unsubscribe, heard

    assert _run(scenario) == (1, 0, [b"later"])


def test_a_callback_that_fails_does_not_end_the_connection(caplog):
    async def scenario():
        heard = []

        def handle(channel, data):
            if data == b"bad":
                raise ValueError("cannot handle this one")
            heard.append(data)

        subscriber = await Subscriber.open(pubsub.redis_url(), ["t-sub-bad"], handle)
        publisher = await _publisher()
        await publisher.publish("t-sub-bad", b"bad")
        await publisher.publish("t-sub-bad", b"good")
        await _eventually(lambda: heard)
        still_open = not subscriber.closed.done()
        subscriber.close()
        await publisher.aclose()
        return heard, still_open

    heard, still_open = _run(scenario)
    assert heard == [b"good"] and still_open
    assert "could not be handled" in caplog.text


def test_a_connection_killed_by_redis_completes_closed_and_fails_what_awaited():
    async def scenario():
        subscriber = await Subscriber.open(pubsub.redis_url(), ["t-sub-kill"],
                                           lambda channel, data: None)
        host, port = subscriber._transport.get_extra_info("sockname")[:2]
        admin = await _publisher()
        killed = await admin.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}")
        await asyncio.wait_for(asyncio.shield(subscriber.closed), 5)
        with pytest.raises(SubscriberLost):
            await subscriber.subscribe("t-sub-after")
        await admin.aclose()
        return killed

    assert _run(scenario) in (True, b"OK", "OK")


def test_a_silent_server_is_given_up_after_two_health_checks(monkeypatch):
    """A server that confirms the subscription, then answers nothing (not even PING)."""
    monkeypatch.setattr(pubsub_subscriber, "HEALTH_CHECK_SECONDS", 0.2)

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"t-sub-silent\r\n")
        writer.write(b"*3\r\n$9\r\nsubscribe\r\n$12\r\nt-sub-silent\r\n:1\r\n")
        await reader.read()  # then nothing, whatever comes

    async def scenario():
        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        subscriber = await Subscriber.open(f"redis://127.0.0.1:{port}/0", ["t-sub-silent"],
                                           lambda channel, data: None)
        started = asyncio.get_running_loop().time()
        await asyncio.wait_for(asyncio.shield(subscriber.closed), 5)
        server.close()
        return asyncio.get_running_loop().time() - started

    assert 0.35 < _run(scenario) < 2.0


def test_one_subscribe_for_many_channels_hears_each_of_them():
    """A hub that opens its connection again subscribes to all its followed matches at
    once (games/play/hub.py ``_open_pubsub``)."""
    channels = [f"t-sub-many-{number}" for number in range(300)]

    async def scenario():
        heard = set()
        subscriber = await Subscriber.open(pubsub.redis_url(), channels[:1],
                                           lambda channel, data: heard.add(channel))
        await subscriber.subscribe(*channels[1:])
        publisher = await _publisher()
        receivers = [await publisher.publish(channel, b"x") for channel in channels]
        await _eventually(lambda: len(heard) == len(channels))
        subscriber.close()
        await publisher.aclose()
        return receivers, heard

    receivers, heard = _run(scenario)
    assert receivers == [1] * len(channels)
    assert heard == {channel.encode() for channel in channels}
