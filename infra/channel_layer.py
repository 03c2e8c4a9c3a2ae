"""The channel layer (settings.CHANNEL_LAYERS): channels-redis, made to outlive a Redis
outage.

channels-redis raises on every connection error. During an outage a websocket's receive
loop died with it (the socket closed with 1011), a subscription or a stream that joined a
group failed before its first push, and a Redis that restarted empty (it keeps nothing
here) had forgotten every group membership, so a connection that survived would never hear
of a change again. This layer:

- ``receive`` waits an outage out, trying again every ``RETRY_SECONDS``, instead of
  raising;
- ``group_add`` and ``group_discard`` are remembered for this process's own channels; an
  add that cannot reach Redis takes effect when Redis answers again;
- once Redis answers after an outage, every membership of this process's channels is
  added again, and each of those channels then gets one ``{"type": "layer.resumed"}``
  message (``RESUMED_TYPE``): what was sent to it meanwhile is lost, so whoever reads it
  re-reads the database (the GraphQL websocket hands it to every subscription as a
  notification, games/graphql/websocket.py; the feed stream re-reads its events,
  games/feed/stream.py). A consumer of this layer that joins groups must accept it.

``send`` and ``group_send`` still raise: their callers log and go on
(infra/channel_messages.py), and the readers catch up as above.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict

from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer

from infra.outages import REDIS_UNAVAILABLE

logger = logging.getLogger(__name__)

#: the message every channel with a membership gets once Redis answers after an outage
RESUMED_TYPE = "layer.resumed"
#: how often an outage is probed (receive, and adding the memberships again)
RETRY_SECONDS = 0.5


class ResilientRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: this process's channels -> the groups they joined
        self._memberships: defaultdict[str, set[str]] = defaultdict(set)
        self._resumer: asyncio.Task | None = None

    async def group_add(self, group: str, channel: str) -> None:
        if "!" in channel:  # a channel of this process (new_channel)
            self._memberships[channel].add(group)
        try:
            await super().group_add(group, channel)
        except REDIS_UNAVAILABLE as exc:
            self._outage(exc)  # joined once Redis answers

    async def group_discard(self, group: str, channel: str) -> None:
        groups = self._memberships.get(channel)
        if groups is not None:
            groups.discard(group)
            if not groups:
                del self._memberships[channel]
        try:
            await super().group_discard(group, channel)
        except REDIS_UNAVAILABLE:
            # the stale membership expires with the group (group_expiry), and what is
            # sent to a channel nobody reads expires too
            pass

    async def group_send(self, group: str, message: dict) -> None:
        """As channels-redis sends, but a group nobody joined costs one round trip, not
        two: every move is sent to its match's group and its next player's feed group,
        and most have no member on the channel layer (the play sockets listen on Pub/Sub,
        games/play/hub.py). The expired members are dropped first, as channels-redis
        does, so a group of only expired members counts as empty."""
        key = self._group_key(group)
        async with self.connection(self.consistent_hash(group)).pipeline(
                transaction=False) as pipe:
            pipe.zremrangebyscore(key, min=0, max=int(time.time()) - self.group_expiry)
            pipe.exists(key)
            _dropped, present = await pipe.execute()
        if present:
            await super().group_send(group, message)

    async def receive(self, channel: str) -> dict:
        while True:
            try:
                return await super().receive(channel)
            except REDIS_UNAVAILABLE as exc:
                self._outage(exc)
                await asyncio.sleep(RETRY_SECONDS)

    def membership_count(self) -> int:
        """Memberships this process holds (tests, the log)."""
        return sum(len(groups) for groups in self._memberships.values())

    # ------------------------------------------------------------------- after an outage
    def _outage(self, exc: BaseException) -> None:
        if self._resumer is None or self._resumer.done():
            logger.warning("channel layer: Redis unreachable (%r); waiting for it", exc)
            self._resumer = asyncio.ensure_future(self._resume())

    async def _resume(self) -> None:
        """Add every membership again until Redis takes them all, then wake each channel
        (through Redis, as any message: a receive waits on Redis, not on its buffer).
        Never gives up: a reader that outlived the outage would otherwise never hear again."""
        while True:
            await asyncio.sleep(RETRY_SECONDS)
            try:
                for channel, groups in list(self._memberships.items()):
                    for group in list(groups):
                        await RedisChannelLayer.group_add(self, group, channel)
                for channel in list(self._memberships):
                    with contextlib.suppress(ChannelFull):  # its reader is far behind anyway
                        await RedisChannelLayer.send(self, channel, {"type": RESUMED_TYPE})
            except REDIS_UNAVAILABLE:
                continue
            except Exception:  # noqa: BLE001 - not an outage we know: log it, keep trying
                logger.exception("channel layer: restoring the memberships failed")
                continue
            break
        logger.warning("channel layer: Redis answers again; %d memberships restored",
                       self.membership_count())
