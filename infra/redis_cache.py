"""Django's Redis cache, kept connected, with one client per connection pool.

Django closes every cache at the end of every request (the ``request_finished`` signal),
and its Redis backend's ``close`` disconnects the whole connection pool: the next request
opens a new TCP connection and checks its health (12-15% of a web process's samples
under the capacity issue's load, measured with py-spy; docs/capacity.md). A pool exists to
be reused, so ``close`` here keeps the connections; redis-py reconnects a broken one on
its next command. Django also makes a new cache backend object per request under ASGI
(``caches`` is local to each request's context), so the pools live at module level, one
per server and process, like the database's connection pool.

Also, ``RedisCacheClient.get_client`` builds a new ``redis.Redis`` (and its table of
response callbacks) for every operation. A ``redis.Redis`` is safe to share between
threads (each command borrows a connection from the pool), so one per pool is enough.
"""

from __future__ import annotations

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

#: the process's (pool, client) by server URL: shared by every instance of the cache
#: backend (Django makes one per request context, see the module doc)
_SHARED: dict[str, tuple] = {}
_LOCK = threading.Lock()


class SharedClientRedisCacheClient(RedisCacheClient):
    def _get_connection_pool(self, write):
        return self._shared(self._servers[self._get_connection_pool_index(write)])[0]

    def get_client(self, key=None, *, write=False):
        return self._shared(self._servers[self._get_connection_pool_index(write)])[1]

    def _shared(self, server: str) -> tuple:
        """The process's (pool, client) for ``server``, made on first use."""
        shared = _SHARED.get(server)
        if shared is None:
            with _LOCK:
                shared = _SHARED.get(server)
                if shared is None:
                    pool = self._pool_class.from_url(server, **self._pool_options)
                    shared = _SHARED[server] = (pool, self._client(connection_pool=pool))
        return shared


class SharedClientRedisCache(RedisCache):
    def __init__(self, server, params) -> None:
        super().__init__(server, params)
        self._class = SharedClientRedisCacheClient

    def close(self, **kwargs) -> None:
        """Keep the pool's connections between requests (see the module doc)."""

    def redis_client(self):
        """The ``redis.Redis`` that writes go through, for callers that need a Redis
        command the cache API has no word for (the throttles' counter in one round trip)."""
        return self._cache.get_client(write=True)
