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

import redis
from channels.exceptions import ChannelFull
from channels_redis.core import RedisChannelLayer

from infra.outages import REDIS_UNAVAILABLE

logger = logging.getLogger(__name__)

#: the message every channel with a membership gets once Redis answers after an outage
RESUMED_TYPE = "layer.resumed"
#: how often an outage is probed (receive, and adding the memberships again)
RETRY_SECONDS = 0.5


#: the synchronous membership check gives up this fast (then assumes members)
SYNC_CHECK_TIMEOUT_SECONDS = 0.25
#: after a failed check, checks are skipped (members assumed) until then, per process
_sync_down_until = 0.0


def _sync_client(host: dict) -> redis.Redis:
    options = {key: value for key, value in host.items()
               if key not in ("address", "socket_timeout", "socket_connect_timeout",
                              "socket_keepalive")}
    options.update(socket_timeout=SYNC_CHECK_TIMEOUT_SECONDS,
                   socket_connect_timeout=SYNC_CHECK_TIMEOUT_SECONDS)
    if "address" in host:
        return redis.Redis.from_url(host["address"], **options)
    return redis.Redis(**options)


class ResilientRedisChannelLayer(RedisChannelLayer):
    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        #: this process's channels -> the groups they joined
        self._memberships: defaultdict[str, set[str]] = defaultdict(set)
        self._resumer: asyncio.Task | None = None
        self._sync_clients: dict[int, redis.Redis] = {}

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

    def may_have_members(self, group: str) -> bool:
        """Whether ``group`` may have a member, asked synchronously (one EXISTS, a short
        round trip; True when Redis cannot say, so the send goes ahead and fails as it
        would have). Every move is sent to its match's group and its next player's feed
        group, and most have no member on the channel layer (the play sockets listen on
        Pub/Sub, games/play/hub.py): a sync EXISTS costs a small part of channels-redis's
        group send (two commands, an asyncio pipeline), which was 5% of a web process's
        CPU under the peer benchmark (py-spy, docs/capacity.md). A group of only expired
        members counts as present: the send that follows drops them, as before."""
        return self.members_and_publish([group])[0]

    def members_and_publish(self, groups: list[str], channel: str | None = None,
                            payload: bytes | None = None) -> list[bool]:
        """``may_have_members`` of each group, and a PUBLISH of ``payload`` on
        ``channel`` (infra/pubsub.py's, on the first host): one round trip per host asked,
        so one with a single host. A move's notifications go this way
        (infra/pubsub.py ``publish_with_groups``). Redis away: every group may have members
        (their sends go ahead and fail as they would have), the message is not published
        (the play hubs' resync check reads what it announced: games/play/hub.py), and
        Redis is not asked again for a second, so a move waits on it at most once."""
        global _sync_down_until
        if time.monotonic() < _sync_down_until:
            return [True] * len(groups)
        by_host: dict[int, list[str]] = {0: []} if channel is not None else {}
        for group in groups:
            by_host.setdefault(self.consistent_hash(group), []).append(group)
        present: dict[str, bool] = {}
        for index, asked in by_host.items():
            client = self._sync_clients.get(index)
            if client is None:
                client = self._sync_clients[index] = _sync_client(self.hosts[index])
            pipe = client.pipeline(transaction=False)
            for group in asked:
                pipe.exists(self._group_key(group))
            if index == 0 and channel is not None:
                pipe.publish(channel, payload)
            try:
                answers = pipe.execute()
            except redis.RedisError:
                if channel is not None:
                    logger.warning("could not ask about groups %s nor publish on %s",
                                   groups, channel, exc_info=True)
                # the asynchronous sends report the outage; don't wait on Redis every move
                _sync_down_until = time.monotonic() + RETRY_SECONDS * 2
                return [True] * len(groups)
            # the groups' EXISTS answers first; host 0's last answer is the PUBLISH's
            present.update(zip(asked, map(bool, answers), strict=False))
        return [present[group] for group in groups]

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
