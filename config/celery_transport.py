"""The broker transport (settings.CELERY_BROKER_TRANSPORT, for a ``redis://`` broker):
kombu's Redis transport, with one Redis client per channel for its synchronous commands.

kombu builds a new ``redis.Redis`` for every synchronous command it sends: each task
published (a web process's ``send_task``), each message a worker takes (``QoS.append``)
and each one it acknowledges (``QoS.ack``). redis-py 5+ copies its table of some 200
reply callbacks into every new client, about 0.13 ms of CPU each here: under the load test
(bench/load_test.py --socket) that was 6% of the worker's CPU and 2% of the web
processes' (py-spy). The client holds no connection of its own (every command and
pipeline borrows one from the channel's pool, which redis-py makes thread-safe), so one
per channel serves them all. It is made again when kombu replaces the channel's pool
(after a connection error). The asynchronous client (the worker's BRPOP) is kombu's.
"""

from __future__ import annotations

from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    _sync_client = None

    def _create_client(self, asynchronous=False):
        if asynchronous:
            return super()._create_client(asynchronous=True)
        client = self._sync_client
        if client is None or client.connection_pool is not self.pool:
            client = self._sync_client = super()._create_client()
        return client


class Transport(kombu_redis.Transport):
    Channel = Channel
