"""A play socket's frames waiting for its writer (games/play/sending.py): a bounded FIFO with
one consumer, the socket's writer task.

asyncio.Queue serves any number of producers and consumers and counts finished tasks: it
carries three deques and an Event, 3.3 KB for each open socket before a frame is queued
(tracemalloc, issue 45; bench/socket_memory.py). A socket needs a list and, while its
writer waits, one future.
"""

from __future__ import annotations

import asyncio
from collections import deque


class SendQueue:
    __slots__ = ("_items", "_maxsize", "_waiter")

    def __init__(self, maxsize: int) -> None:
        self._items: deque = deque()
        self._maxsize = maxsize
        self._waiter: asyncio.Future | None = None  # the writer's, while it waits

    def empty(self) -> bool:
        return not self._items

    def clear(self) -> None:
        """Forget every item waiting."""
        self._items.clear()

    def put_nowait(self, item) -> None:
        """Queue ``item``; asyncio.QueueFull when ``maxsize`` items wait already."""
        if len(self._items) >= self._maxsize:
            raise asyncio.QueueFull
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def get_nowait(self):
        """The oldest item; asyncio.QueueEmpty when none waits."""
        if not self._items:
            raise asyncio.QueueEmpty
        return self._items.popleft()

    async def get(self):
        """The oldest item, once there is one (one consumer at a time)."""
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.popleft()
