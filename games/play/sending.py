"""What one play socket sends (games/play/connection.py): a bounded queue of frames drained
by the socket's own writer task, so a reader that falls behind is closed (4408) instead of
holding up the mover or the other sockets; the close frame, after the queued frames or at
once; heartbeats when nothing else was sent; and the pushes about a match held while the
socket's move on it awaits its answer, so the ``ack`` comes first (docs/play.md "What you
can rely on")."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.conf import settings

from games.play.protocol import CLOSE_TOO_SLOW, frame
from games.play.send_queue import SendQueue

logger = logging.getLogger(__name__)

_CLOSE = object()  # the writer's last item: close with the code it carries


class SocketSending:
    """The sending half of a socket. Its subclass (``PlayConnection``) starts ``_write``
    and ``_heartbeat`` as tasks and sets ``user`` (named in the log line of a reader cut
    off)."""

    user: Any

    def __init__(self, send) -> None:
        self._send = send
        self._queue = SendQueue(settings.PLAY_SEND_QUEUE)
        self._closing = False
        self._writer: asyncio.Task | None = None
        self._close_requested = False  # a close frame is queued behind the frames
        self._closer: asyncio.Task | None = None
        #: match -> the pushes about it held while this socket's move on it awaits its
        #: answer (``answering_move``)
        self._held: dict[int, list[str]] = {}
        #: when a frame was last queued (``time.monotonic``): the heartbeat's clock
        self._last_queued = time.monotonic()

    def enqueue(self, text: str) -> None:
        """Queue one frame; a full queue closes the socket (4408): the reader resyncs."""
        if self._closing:
            return
        try:
            self._queue.put_nowait(text)
            self._last_queued = time.monotonic()
        except asyncio.QueueFull:
            logger.info("play socket of %s fell %s frames behind: closed",
                        self.user, settings.PLAY_SEND_QUEUE)
            self.close(CLOSE_TOO_SLOW, drop_queued=True)

    def push(self, match_id: int, text: str) -> None:
        """Queue a frame about a followed match. While this socket's move on that match
        awaits its answer, the frame is held and goes right after the ``ack`` or
        ``refused``: a push caused by the move can reach the hub first (the scoring that
        ends the match, a bot's reply, the resync check), and the ack must come before
        any update of the ply it made (docs/play.md)."""
        held = self._held.get(match_id)
        if held is not None:
            held.append(text)
        else:
            self.enqueue(text)

    @contextmanager
    def answering_move(self, match_id: int) -> Iterator[None]:
        """Within this block (the move's commit, then its ``ack`` or ``refused``), pushes
        about ``match_id`` are held (``push``); they are queued when it ends, however it
        ends (a cancelled move holds nothing back for good)."""
        self._held[match_id] = []
        try:
            yield
        finally:
            for text in self._held.pop(match_id):
                self.enqueue(text)

    def close(self, code: int, *, drop_queued: bool = False) -> None:
        """Close after the queued frames, or at once (``drop_queued``): the frames still
        queued are dropped and a writer blocked on a reader that does not read is
        stopped, so the close frame goes out behind what the kernel holds already."""
        if self._closing:
            return
        self._closing = True
        if drop_queued:
            self.drop_queued()
            if self._writer is not None and not self._writer.done():
                self._writer.cancel()
                self._closer = asyncio.get_running_loop().create_task(self._send_close(code))
                return
        self._close_requested = True
        self._queue.put_nowait((_CLOSE, code))

    def drop_queued(self) -> None:
        """Forget the frames queued and not yet written."""
        self._queue.clear()

    async def _send_close(self, code: int) -> None:
        try:
            await self._send({"type": "websocket.close", "code": code})
        except Exception:  # noqa: BLE001 - already gone
            pass

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            if isinstance(item, tuple) and item[0] is _CLOSE:
                await self._send_close(item[1])
                return
            try:
                await self._send({"type": "websocket.send", "text": item})
            except Exception:  # noqa: BLE001 - the peer went away: the reader ends too
                self._closing = True
                return
            # sent: not held while the writer waits for the next frame (a sync is a few
            # KB, and a quiet socket waits for minutes: 2.4 KB per socket, issue 45)
            del item

    async def _heartbeat(self) -> None:
        """A ``ping`` once nothing was queued for ``PLAY_HEARTBEAT_SECONDS``: a client hears
        something at least that often, and a socket its matches keep busy gets no ping.
        Under load every socket hears of its moves every few seconds, and a ping per socket
        every 25 s was about one frame in nine written (docs/capacity.md, session 14)."""
        interval = settings.PLAY_HEARTBEAT_SECONDS
        while not self._closing:
            quiet_for = time.monotonic() - self._last_queued
            if quiet_for >= interval:
                self.enqueue(frame("ping"))
                quiet_for = 0.0
            await asyncio.sleep(interval - quiet_for)
