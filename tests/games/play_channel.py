"""Listening on a match's play channel as a web process's hub does (Redis Pub/Sub,
games.live.channels): for the tests of what the worker announces there."""

from __future__ import annotations

import time

import orjson
import redis

from games.live.channels import play_channel
from infra import pubsub


def listener(match_id: int):
    """A Pub/Sub connection on the match's play channel: what a web process's hub holds.
    Returns (client, channel); close both."""
    client = redis.Redis.from_url(pubsub.redis_url())
    channel = client.pubsub(ignore_subscribe_messages=True)
    channel.subscribe(play_channel(match_id))
    return client, channel


def messages(channel, until: float) -> list[dict]:
    """Every message heard on ``channel`` until ``until`` (``time.monotonic()``)."""
    found = []
    while time.monotonic() < until:
        message = channel.get_message(timeout=0.2)
        if message and message["type"] == "message":
            found.append(orjson.loads(message["data"]))
    return found
