"""Where the rate limits keep their counts: in Redis, shared by every web process, or -
while Redis cannot be reached - in this process's memory, bounded, until Redis answers.

Redis is the real store: every web process counts a client together there. An outage must
not take the API down with it (issue 21), so a call that fails to reach Redis (refused,
timed out) switches this process to counting alone for ``RETRY_REDIS_AFTER_SECONDS``; the
first call after that tries Redis again, and stays there if it answers. The cache's
sockets time out fast (``CACHES["default"]["OPTIONS"]``, config/settings.py), so finding
Redis gone costs one request at most that timeout, once per retry interval and process.

While degraded (docs/security.md "Rate limits while Redis is down"):

- each process counts alone: a client whose requests spread over N web processes gets up
  to N times a rate, while one process still stops a flood at the rate;
- counts made during the outage are not carried to Redis when it returns, nor the
  other way: a window may start again from zero once;
- at most ``MAX_LOCAL_KEYS`` counters are kept (expired ones are dropped first, then the
  oldest), so a flood of invented callers cannot grow the process's memory; a caller whose
  counter was dropped starts again from zero.

Every counter has a lifetime (``ttl`` seconds); expiry is decided by ``time.time()`` here
and by Redis there, and callers decide windows and back-offs from their own clock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict

from django.core.cache import caches
from django.core.signals import setting_changed
from django_redis import get_redis_connection

from infra.outages import REDIS_UNAVAILABLE

logger = logging.getLogger(__name__)

#: after Redis failed, this process counts alone this long before it asks Redis again
RETRY_REDIS_AFTER_SECONDS = 1.0
#: the most counters one process keeps while Redis is unreachable (~200 bytes each)
MAX_LOCAL_KEYS = 10_000


def add(name: str, ttl: int, *, extend: bool = False) -> int:
    """Add one to counter ``name`` and return the new count. The counter lives ``ttl``
    seconds from its first addition, or from this one with ``extend``."""
    return _call("add", name, ttl, extend)


def get(name: str) -> int:
    """The value of counter ``name``; 0 when there is none (or it expired)."""
    return _call("get", name)


def put(name: str, value: int, ttl: int) -> None:
    """Set ``name`` to ``value`` for ``ttl`` seconds."""
    _call("put", name, value, ttl)


def delete(name: str) -> None:
    _call("delete", name)


def local_key_count() -> int:
    """How many counters this process holds itself (tests, the outage's bound)."""
    return len(_LOCAL)


def forget_outage() -> None:
    """Ask Redis at the next call and drop the local counts (tests)."""
    global _redis_down_until
    _redis_down_until = 0.0
    _LOCAL.clear()


# ----------------------------------------------------------------- which store answers
_redis_down_until = 0.0  # time.monotonic() before which this process counts alone


def _call(operation: str, *args):
    if _asking_redis():
        try:
            result = getattr(_REDIS, operation)(*args)
        except REDIS_UNAVAILABLE as exc:
            _redis_failed(exc)
        else:
            _redis_answered()
            return result
    return getattr(_LOCAL, operation)(*args)


def _asking_redis() -> bool:
    return time.monotonic() >= _redis_down_until


def _redis_failed(exc: BaseException) -> None:
    global _redis_down_until
    if not _redis_down_until:
        # once per outage; the driver's text (host, port) goes to the log only
        logger.warning("rate limits: Redis unreachable (%r); counting in this "
                       "process until it answers", exc)
    _redis_down_until = time.monotonic() + RETRY_REDIS_AFTER_SECONDS


def _redis_answered() -> None:
    global _redis_down_until
    if _redis_down_until:
        logger.warning("rate limits: Redis answers again; counting there")
        _redis_down_until = 0.0


class PendingAdd:
    """``add`` in two halves, so its round trip to Redis overlaps other work: made, it
    sends the INCR and EXPIRE without waiting; ``count()`` reads their answer (once; the
    connection goes back to the pool then). A play socket's move sends its rate limit's
    count before the match's lock and read and reads it after them (games/play/
    operations.py, docs/capacity.md "Fewer round trips on a socket move"). Redis
    away at either half: counted in this process, as ``add`` does."""

    def __init__(self, name: str, ttl: int) -> None:
        self._name, self._ttl = name, ttl
        self._count: int | None = None
        self._sent = None  # (pool, connection) holding the unread answer
        if _asking_redis():
            try:
                self._sent = _REDIS.send_add(name, ttl)
            except REDIS_UNAVAILABLE as exc:
                _redis_failed(exc)

    def count(self) -> int:
        if self._count is None:
            self._count = self._read()
        return self._count

    def _read(self) -> int:
        sent, self._sent = self._sent, None
        if sent is not None:
            try:
                count = _REDIS.read_add(*sent)
            except REDIS_UNAVAILABLE as exc:
                _redis_failed(exc)
            else:
                _redis_answered()
                return count
        return _LOCAL.add(self._name, self._ttl, False)


class _RedisCounters:
    """The shared store: one Redis key per counter, in the cache's database and prefix."""

    def add(self, name: str, ttl: int, extend: bool) -> int:
        key = self._key(name)
        # INCR creates the counter at 1 if need be; EXPIRE NX gives it its lifetime only
        # the first time (a later hit never extends a window), or every time to extend.
        # One round trip.
        pipe = self._client().pipeline(transaction=False)
        pipe.incr(key)
        pipe.expire(key, ttl, nx=not extend)
        count, _ = pipe.execute()
        return count

    def send_add(self, name: str, ttl: int) -> tuple:
        """``add``'s commands written to a connection of the pool, their answer unread:
        (pool, connection) for ``read_add``. What redis-py's pipeline does in one go."""
        key = self._key(name)
        pool = self._client().connection_pool
        connection = pool.get_connection()
        try:
            connection.send_packed_command(connection.pack_commands(
                [("INCR", key), ("EXPIRE", key, ttl, "NX")]))
        except BaseException:
            connection.disconnect()
            pool.release(connection)
            raise
        return pool, connection

    @staticmethod
    def read_add(pool, connection) -> int:
        """The count ``send_add``'s INCR returned; the connection back to the pool (cut
        first if anything went wrong: an answer left unread would be the next caller's)."""
        try:
            count = connection.read_response()
            connection.read_response()  # EXPIRE's 0 or 1
        except BaseException:
            connection.disconnect()
            raise
        finally:
            pool.release(connection)
        return int(count)

    def get(self, name: str) -> int:
        value = self._client().get(self._key(name))
        return int(value) if value is not None else 0

    def put(self, name: str, value: int, ttl: int) -> None:
        self._client().set(self._key(name), int(value), ex=ttl)

    def delete(self, name: str) -> None:
        self._client().delete(self._key(name))

    @staticmethod
    def _client():
        return _shared_store()[0]

    @staticmethod
    def _key(name: str) -> str:
        return _shared_store()[1](name)


#: the cache's Redis client and key maker, made once per process. Django keeps a cache
#: object per context, and the play hubs run each message in a fresh copy of their
#: context (games/play/hub.py): through ``caches`` every count made a new cache object
#: and client (3% of a web process's CPU under the peer benchmark, py-spy). The client is
#: thread-safe and shares the cache's connection pool.
_store: tuple | None = None


def _shared_store() -> tuple:
    global _store
    if _store is None:
        _store = (get_redis_connection("default"), caches["default"].make_and_validate_key)
    return _store


def _forget_store(*, setting: str, **_kwargs) -> None:
    global _store
    if setting == "CACHES":  # tests that point the cache elsewhere
        _store = None


setting_changed.connect(_forget_store)


class _LocalCounters:
    """This process's own counts while Redis is away: bounded, expiring, thread-safe (a
    web process serves WEB_THREADS requests at once)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: OrderedDict[str, list] = OrderedDict()  # name -> [value, expires_at]
        self._swept_at = 0.0

    def __len__(self) -> int:
        return len(self._values)

    def clear(self) -> None:
        with self._lock:
            self._values.clear()

    def add(self, name: str, ttl: int, extend: bool) -> int:
        now = time.time()
        with self._lock:
            entry = self._live(name, now)
            if entry is None:
                entry = self._insert(name, [0, now + ttl], now)
            entry[0] += 1
            if extend:
                entry[1] = now + ttl
            return entry[0]

    def get(self, name: str) -> int:
        with self._lock:
            entry = self._live(name, time.time())
            return entry[0] if entry is not None else 0

    def put(self, name: str, value: int, ttl: int) -> None:
        now = time.time()
        with self._lock:
            self._values.pop(name, None)
            self._insert(name, [int(value), now + ttl], now)

    def delete(self, name: str) -> None:
        with self._lock:
            self._values.pop(name, None)

    def _live(self, name: str, now: float) -> list | None:
        entry = self._values.get(name)
        if entry is not None and entry[1] <= now:
            del self._values[name]
            return None
        return entry

    def _insert(self, name: str, entry: list, now: float) -> list:
        if len(self._values) >= MAX_LOCAL_KEYS and now - self._swept_at >= 1:
            # expired counters first; at most once a second, so a flood of new callers
            # does not pay a scan of the whole store each
            self._swept_at = now
            for stale in [key for key, (_, expires) in self._values.items() if expires <= now]:
                del self._values[stale]
        while len(self._values) >= MAX_LOCAL_KEYS:
            self._values.popitem(last=False)  # the oldest inserted
        self._values[name] = entry
        return entry


_REDIS = _RedisCounters()
_LOCAL = _LocalCounters()
