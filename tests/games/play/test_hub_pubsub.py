"""A play hub's Pub/Sub connection on a real Redis, opened by the first follows of a web
process (games/play/hub.py ``_open_pubsub``): sockets that follow different matches at
the same moment, as the first sockets after a start do, are all heard, and the listener
never reads a half-open connection (which used to cost a warning, a reconnect after 0.5 s
and a reread of every followed match)."""

from __future__ import annotations

import asyncio
import logging
import socket
from types import SimpleNamespace

import pytest
import redis.asyncio

from games.live.channels import PLAY_PUSHES_TYPE, play_channel
from games.play.hub import Follow, Hub
from infra import pubsub

#: a seated follower's push is a look: known here that nobody is mailable
pytestmark = pytest.mark.usefixtures("nobody_mailable")

MATCHES = (101, 102, 103, 104)


class _Socket:
    def __init__(self, match_id: int) -> None:
        self.follows = {match_id: Follow(ply=3, status="active", seat=0)}
        self.sent: list[str] = []
        self.user = SimpleNamespace(pk=10, is_authenticated=True)  # seat 0's player

    def push(self, match_id: int, text: str) -> None:
        self.sent.append(text)


async def _nothing() -> None:
    await asyncio.Event().wait()


def _hub_recording_refreshes() -> tuple[Hub, list[int]]:
    """A hub whose reads of followed matches are recorded instead of made (the database
    safety net, its resync check, is not under test here)."""
    hub, refreshed = Hub(), []
    hub.refresh_soon = lambda match_id, ply=None, cause=None: refreshed.append(match_id)
    hub._resync = _nothing
    return hub, refreshed


async def _publish_move(publisher: redis.asyncio.Redis, match_id: int, text: str) -> None:
    """What another process publishes for a move at ply 3: seat 0's frame is ``text``, and
    user 10 holds seat 0."""
    await publisher.publish(play_channel(match_id), pubsub.encode({
        "type": PLAY_PUSHES_TYPE, "origin": "elsewhere", "match_id": match_id,
        "since": 3, "ply": 4, "status": "active", "frames": {"0": text},
        "holders": {"10": 0}}))


async def _eventually(condition) -> None:
    for _ in range(50):
        if condition():
            return
        await asyncio.sleep(0.1)


async def _stop(hub: Hub, publisher: redis.asyncio.Redis) -> None:
    for task in hub._tasks.values():
        task.cancel()
    await asyncio.gather(*hub._tasks.values(), return_exceptions=True)
    await publisher.aclose()


def test_follows_at_once_on_a_fresh_hub_are_all_heard_without_a_reconnect(caplog):
    caplog.set_level(logging.WARNING, logger="games.play.hub")

    async def scenario() -> tuple[list[_Socket], list]:
        hub, refreshed = _hub_recording_refreshes()
        sockets = [_Socket(match_id) for match_id in MATCHES]
        await asyncio.gather(*(hub.follow(socket, match_id)
                               for socket, match_id in zip(sockets, MATCHES, strict=True)))
        await asyncio.sleep(0.3)  # the listener runs, reading the connection
        publisher = redis.asyncio.Redis.from_url(pubsub.redis_url())
        for match_id in MATCHES:
            await _publish_move(publisher, match_id, f"frame {match_id}")
        await _eventually(lambda: all(socket.sent for socket in sockets))
        await _stop(hub, publisher)
        return sockets, refreshed

    sockets, refreshed = asyncio.run(scenario())
    assert [socket.sent for socket in sockets] == [[f"frame {m}"] for m in MATCHES]
    assert [record.getMessage() for record in caplog.records] == []
    # opened once: the followed matches were read up to date at most once each
    assert len(refreshed) == len(set(refreshed))


def test_a_lost_connection_is_opened_again_and_the_followed_matches_caught_up(caplog):
    """Redis drops the hub's Pub/Sub connection: the hub opens a new one, reads its
    followed match up to date (what was published meanwhile is lost with the old one),
    and hears what is published after."""
    caplog.set_level(logging.WARNING, logger="games.play.hub")

    async def scenario() -> tuple[list[str], list[int]]:
        hub, refreshed = _hub_recording_refreshes()
        follower = _Socket(MATCHES[0])
        await hub.follow(follower, MATCHES[0])
        await asyncio.sleep(0.1)
        refreshed.clear()
        first = hub._pubsub
        host, port = first._transport.get_extra_info("sockname")[:2]
        publisher = redis.asyncio.Redis.from_url(pubsub.redis_url())
        await publisher.execute_command("CLIENT", "KILL", "ADDR", f"{host}:{port}")
        await _eventually(lambda: hub._pubsub is not None and hub._pubsub is not first)
        await _publish_move(publisher, MATCHES[0], "after the loss")
        await _eventually(lambda: follower.sent)
        await _stop(hub, publisher)
        return follower.sent, refreshed

    sent, refreshed = asyncio.run(scenario())
    assert sent == ["after the loss"]
    assert refreshed == [MATCHES[0]]
    assert "play hub lost Redis" in caplog.text


def test_redis_unreachable_at_the_first_follow_is_waited_out(caplog, monkeypatch):
    """Redis is away when the first socket follows: the follow still returns (its socket
    is served from the database), the listener keeps trying, and once Redis answers the
    hub subscribes, reads the match up to date and hears what comes next."""
    caplog.set_level(logging.WARNING, logger="games.play.hub")
    reachable = pubsub.redis_url()
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        closed_port = probe.getsockname()[1]
    monkeypatch.setattr(pubsub, "redis_url", lambda: f"redis://127.0.0.1:{closed_port}/0")

    async def scenario() -> tuple[list[str], list[int], bool]:
        hub, refreshed = _hub_recording_refreshes()
        follower = _Socket(MATCHES[0])
        await hub.follow(follower, MATCHES[0])
        await asyncio.sleep(0.2)
        unsubscribed_while_away = hub._pubsub is None
        monkeypatch.setattr(pubsub, "redis_url", lambda: reachable)  # Redis is back
        await _eventually(lambda: hub._pubsub is not None)
        publisher = redis.asyncio.Redis.from_url(reachable)
        await _publish_move(publisher, MATCHES[0], "after the outage")
        await _eventually(lambda: follower.sent)
        await _stop(hub, publisher)
        return follower.sent, refreshed, unsubscribed_while_away

    sent, refreshed, unsubscribed_while_away = asyncio.run(scenario())
    assert unsubscribed_while_away
    assert sent == ["after the outage"]
    assert refreshed == [MATCHES[0]]
    assert "play hub cannot reach Redis" in caplog.text
