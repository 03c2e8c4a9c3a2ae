"""A change's messages in one round trip to Redis (the channel layer's
``members_and_publish``, infra/pubsub.py ``publish_with_groups`` from the sender thread).

Against a Redis server of the test's own: the groups' membership checks and the PUBLISH go
in one pipeline, only groups with a member are sent to, the PUBLISH reaches a subscriber,
and an unreachable Redis fails nothing (every group may have members, nothing is
published)."""

from __future__ import annotations

import asyncio
import time

import redis

from infra import channel_layer
from tests.infra.test_channel_layer import _layer, private_redis  # noqa: F401 - fixture


def _subscribed(port: int, channel: str):
    pubsub = redis.Redis(port=port).pubsub(ignore_subscribe_messages=True)
    pubsub.subscribe(channel)
    pubsub.get_message(timeout=1)  # the subscription's confirmation
    return pubsub


def _next_message(pubsub, seconds: float = 3.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = pubsub.get_message(timeout=0.2)
        if message is not None:
            return message
    return None


def test_members_and_publish_asks_every_group_and_publishes_in_one_pipeline(
        private_redis, monkeypatch):  # noqa: F811
    layer = _layer(private_redis.port)
    channel = asyncio.run(layer.new_channel())
    asyncio.run(layer.group_add("match-7", channel))
    listener = _subscribed(private_redis.port, "play-7")
    pipelines = []
    original = redis.client.Pipeline.execute

    def counted(self, *args, **kwargs):
        pipelines.append([command[0][0] for command in self.command_stack])
        return original(self, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", counted)
    answers = layer.members_and_publish(["feed-3", "match-7"], "play-7", b'{"ply": 4}')

    assert answers == [False, True]
    assert pipelines == [["EXISTS", "EXISTS", "PUBLISH"]]
    assert _next_message(listener)["data"] == b'{"ply": 4}'


def test_members_and_publish_with_redis_away_assumes_members_and_raises_nothing(
        private_redis, monkeypatch, caplog):  # noqa: F811
    monkeypatch.setattr(channel_layer, "_sync_down_until", 0.0)
    layer = _layer(private_redis.port)
    private_redis.stop()

    assert layer.members_and_publish(["feed-3", "match-7"], "play-7", b"{}") == [True, True]
    assert "could not ask about groups" in caplog.text
    # the next move does not wait on Redis again for a while
    assert channel_layer._sync_down_until > time.monotonic()
    monkeypatch.setattr(channel_layer, "_sync_down_until", 0.0)


def test_group_messages_go_with_the_publish_and_reach_only_groups_with_members(
        private_redis, settings):  # noqa: F811
    settings.CHANNEL_LAYERS = {"default": {
        "BACKEND": "infra.channel_layer.ResilientRedisChannelLayer",
        "CONFIG": {"hosts": [f"redis://127.0.0.1:{private_redis.port}/0"]}}}
    from channels.layers import channel_layers, get_channel_layer

    from infra import pubsub
    from infra.background_sends import wait_until_sent

    channel_layers.backends.clear()
    try:
        layer = get_channel_layer()
        listener = _subscribed(private_redis.port, "play-9")
        sends = [("match-9", {"type": "match.update", "ply": 3}),
                 ("feed-1", {"type": "feed.event"})]

        async def scenario():
            channel = await layer.new_channel()
            await layer.group_add("match-9", channel)
            await asyncio.to_thread(pubsub.publish_with_groups, "play-9", {"ply": 3}, sends)
            assert await asyncio.to_thread(wait_until_sent)
            return await asyncio.wait_for(layer.receive(channel), 5)

        assert asyncio.run(scenario()) == {"type": "match.update", "ply": 3}
        assert pubsub.decode(_next_message(listener)["data"]) == {"ply": 3}
    finally:
        channel_layers.backends.clear()
