"""A Redis Pub/Sub subscriber read as an asyncio protocol: each message is handed to a
callback as its bytes arrive, parsed by hiredis, with no task woken per message.

The play hubs (games/play/hub.py) hear every move of every match their sockets follow
here. Read with redis-py's ``PubSub.get_message`` (its timeout, retry and health-check
wrappers around each read), a 15 KB message cost the reading process 94 us of CPU; read
here, 39 us (bench/pubsub_read.py; docs/capacity.md, session 14).

A subscriber lives as long as its connection: ``closed`` completes when it is lost (Redis
away, no answer to the health check's PING), and its owner opens a new one and catches up
from the database. ``subscribe`` returns once Redis has confirmed the subscription, so a
reader that subscribes and then reads the database misses nothing published after its
read.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from collections import deque
from collections.abc import Callable, Iterable

import hiredis
from redis.asyncio.connection import SSLConnection, UnixDomainSocketConnection, parse_url

logger = logging.getLogger(__name__)

#: a PING this often; a connection that has answered nothing for two of them is lost
HEALTH_CHECK_SECONDS = 30.0
CONNECT_SECONDS = 2.0

OnMessage = Callable[[bytes, bytes], None]  # (channel, data)


class SubscriberLost(ConnectionError):
    """The connection went before Redis answered."""


def _command(*parts: str) -> bytes:
    """A command in Redis's protocol, packed by hiredis (as redis-py packs its own)."""
    return hiredis.pack_command(parts)


class Subscriber(asyncio.Protocol):
    def __init__(self, on_message: OnMessage) -> None:
        self._on_message = on_message
        self._reader = hiredis.Reader()
        self._transport: asyncio.Transport | None = None
        loop = asyncio.get_running_loop()
        self.closed: asyncio.Future = loop.create_future()
        #: what awaits an answer, in the order the commands were sent: (kind, future)
        self._awaiting: deque[tuple[bytes, asyncio.Future]] = deque()
        self._last_heard = loop.time()
        self._health: asyncio.Task | None = None

    # -- opening and closing ------------------------------------------------------------
    @classmethod
    async def open(cls, url: str, channels: Iterable[str], on_message: OnMessage) -> Subscriber:
        """Connect to the Redis at ``url`` (redis://, rediss:// or unix://, with its
        credentials), subscribe to ``channels`` and return once Redis has confirmed it."""
        options = parse_url(url)
        loop = asyncio.get_running_loop()
        kind = options.get("connection_class")
        if kind is UnixDomainSocketConnection:
            connecting = loop.create_unix_connection(lambda: cls(on_message), options["path"])
        else:
            connecting = loop.create_connection(
                lambda: cls(on_message), options.get("host", "localhost"),
                options.get("port", 6379),
                ssl=ssl.create_default_context() if kind is SSLConnection else None)
        _transport, subscriber = await asyncio.wait_for(connecting, CONNECT_SECONDS)
        try:
            if options.get("password"):
                credentials = ([options["username"]] if options.get("username") else []) \
                    + [options["password"]]
                await asyncio.wait_for(subscriber._ask(b"ok", _command("AUTH", *credentials)),
                                       CONNECT_SECONDS)
            await asyncio.wait_for(subscriber.subscribe(*channels), CONNECT_SECONDS)
        except BaseException:
            subscriber.close()
            raise
        subscriber._health = loop.create_task(subscriber._check_health())
        return subscriber

    def close(self) -> None:
        if self._transport is not None:
            self._transport.close()

    # -- commands ---------------------------------------------------------------------------
    async def subscribe(self, *channels: str) -> None:
        """One SUBSCRIBE for them all (a reopened hub's hundreds of matches); Redis
        confirms each channel on its own."""
        if channels:
            await self._ask(b"subscribe", _command("SUBSCRIBE", *channels), len(channels))

    async def unsubscribe(self, channel: str) -> None:
        await self._ask(b"unsubscribe", _command("UNSUBSCRIBE", channel))

    def _ask(self, kind: bytes, command: bytes, answers: int = 1) -> asyncio.Future:
        """Send ``command``; the future completes once Redis has given its ``answers``
        replies of ``kind``."""
        if self.closed.done() or self._transport is None:
            raise SubscriberLost("the Pub/Sub connection is closed")
        loop = asyncio.get_running_loop()
        awaited = [loop.create_future() for _ in range(answers)]
        self._awaiting.extend((kind, answered) for answered in awaited)
        self._transport.write(command)
        return awaited[0] if answers == 1 else asyncio.gather(*awaited)

    async def _check_health(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed.done():
            await asyncio.sleep(HEALTH_CHECK_SECONDS)
            if loop.time() - self._last_heard > 2 * HEALTH_CHECK_SECONDS:
                logger.warning("Pub/Sub connection silent for %.0f s: closed",
                               loop.time() - self._last_heard)
                self.close()
                return
            pong = self._ask(b"pong", _command("PING"))
            # nobody awaits the answer (silence is what counts): a lost connection's
            # failure is retrieved here rather than warned of when the future is dropped
            pong.add_done_callback(lambda answered: answered.cancelled()
                                   or answered.exception())

    # -- asyncio.Protocol -----------------------------------------------------------------
    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        self._last_heard = asyncio.get_running_loop().time()
        self._reader.feed(data)
        while True:
            try:
                reply = self._reader.gets()
            except hiredis.ProtocolError:
                logger.warning("Pub/Sub connection sent what is not RESP: closed")
                self.close()
                return
            if reply is False:
                return
            self._received(reply)

    def _received(self, reply) -> None:
        if isinstance(reply, list) and len(reply) == 3 and reply[0] == b"message":
            try:
                self._on_message(reply[1], reply[2])
            except Exception:  # noqa: BLE001 - one bad message never ends the connection
                logger.exception("Pub/Sub message on %r could not be handled", reply[1])
            return
        if isinstance(reply, hiredis.ReplyError):
            kind, answered = self._awaiting.popleft() if self._awaiting else (None, None)
            logger.warning("Redis refused a Pub/Sub command (%s): %s", kind, reply)
            if answered is not None and not answered.done():
                answered.set_exception(ConnectionError(str(reply)))
            return
        kind = reply[0].lower() if isinstance(reply, list) and reply else \
            (reply.lower() if isinstance(reply, bytes) else None)
        if self._awaiting and self._awaiting[0][0] == kind:
            _kind, answered = self._awaiting.popleft()
            if not answered.done():
                answered.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self._transport = None
        if self._health is not None:
            self._health.cancel()
        while self._awaiting:
            _kind, answered = self._awaiting.popleft()
            if not answered.done():
                answered.set_exception(SubscriberLost("the Pub/Sub connection was lost"))
        if not self.closed.done():
            self.closed.set_result(exc)
