"""How many play sockets each user and each address holds open, counted across the web
processes (docs/play.md "Limits"): ``PLAY_MAX_SOCKETS_PER_USER`` checked at ``hello``,
``PLAY_MAX_SOCKETS_PER_ADDRESS`` at the handshake.

Why Redis and not each process alone: a socket lands on whichever web process accepts
it, so a cap per process (the limit divided by the processes) would refuse a user's
third socket on one process while another process holds none of theirs, and a client
that reconnects would be refused or let in by chance. In Redis, each user and each
address is a sorted set of the sockets it holds (one member per socket, scored by when
its lease ends); a claim drops the expired members, counts the rest and adds its own in
one script (atomic: two processes never both take the last place).

A killed process cannot say goodbye: its sockets' leases are not renewed and end within
``LEASE_SECONDS``; every process renews the leases of its open sockets every
``RENEW_SECONDS`` (one pipelined round trip per process, whatever its sockets). A socket
that closes gives its place back at once. While Redis cannot be reached, a process counts
only its own sockets against the caps (a user may then hold up to the cap on each
process), and renews in Redis again once it answers.

Every call here does I/O: the play socket runs them in the hub's threads.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Awaitable, Callable

from django.core.cache import caches
from django_redis import get_redis_connection

from infra.outages import REDIS_UNAVAILABLE

logger = logging.getLogger(__name__)

#: a socket counts this long after its process last renewed it (a killed process's)
LEASE_SECONDS = 90
#: how often a process renews its sockets' leases
RENEW_SECONDS = 30

_CLAIM = """
local now, ends, limit = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[3]) and redis.call('ZCARD', KEYS[1]) >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], ends, ARGV[3])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return 1
"""


def user_key(user) -> str:
    return f"play-sockets:user:{user.pk}"


def address_key(address: str) -> str:
    return f"play-sockets:addr:{address}"


class OpenSockets:
    """This process's sockets' places, by key (a user or an address)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._held: dict[str, set[str]] = {}
        self._script = None
        self._renewer: asyncio.Task | None = None

    def claim(self, key: str, member: str, limit: int) -> bool:
        """Take a place for socket ``member`` under ``key``: False when ``limit`` places
        are taken already (0: no cap, always True)."""
        if limit <= 0:
            return True
        now = time.time()
        try:
            client = get_redis_connection("default")
            if self._script is None:
                self._script = client.register_script(_CLAIM)
            taken = bool(self._script(keys=[self._redis_key(key)],
                                      args=[now, now + LEASE_SECONDS, member, limit,
                                            LEASE_SECONDS + RENEW_SECONDS],
                                      client=client))
        except REDIS_UNAVAILABLE:
            with self._lock:  # alone until Redis answers (module doc)
                taken = len(self._held.get(key, ())) < limit
        if taken:
            with self._lock:
                self._held.setdefault(key, set()).add(member)
        return taken

    def release(self, key: str, member: str) -> None:
        with self._lock:
            members = self._held.get(key)
            if members is None or member not in members:
                return
            members.discard(member)
            if not members:
                del self._held[key]
        try:
            get_redis_connection("default").zrem(self._redis_key(key), member)
        except REDIS_UNAVAILABLE:
            pass  # its lease ends by itself

    def renew(self) -> None:
        """Extend the lease of every socket this process holds (one round trip)."""
        with self._lock:
            held = [(key, list(members)) for key, members in self._held.items()]
        if not held:
            return
        ends = time.time() + LEASE_SECONDS
        try:
            pipe = get_redis_connection("default").pipeline(transaction=False)
            for key, members in held:
                redis_key = self._redis_key(key)
                pipe.zadd(redis_key, dict.fromkeys(members, ends))
                pipe.expire(redis_key, LEASE_SECONDS + RENEW_SECONDS)
            pipe.execute()
        except REDIS_UNAVAILABLE:
            logger.info("play sockets' leases not renewed: Redis unreachable")

    def keep_renewing(self, run: Callable[..., Awaitable]) -> None:
        """Renew every RENEW_SECONDS from the running loop, ``run`` doing the I/O in a
        thread (the hub's ``run``); started once per process."""
        if self._renewer is None or self._renewer.done():
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever(run))

    async def _renew_forever(self, run) -> None:
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            try:
                await run(self.renew)
            except Exception:  # noqa: BLE001 - the next round tries again
                logger.warning("play sockets' leases not renewed", exc_info=True)

    @staticmethod
    def _redis_key(key: str) -> str:
        return caches["default"].make_and_validate_key(key)


#: this process's registry
open_sockets = OpenSockets()
