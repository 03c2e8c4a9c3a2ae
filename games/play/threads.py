"""The play sockets' database work, off the event loop: a small pool of threads per web
process (``PLAY_THREADS``). Django's ORM is synchronous, and a socket must never block
the event loop that serves all the others (games/play/hub.py holds one pool per process).

A job runs as a request would: with a usable database connection, given back to the pool
afterwards (as Channels' ``database_sync_to_async`` does), in the caller's language and
context (its request id: infra/observability/request_id.py), so its refusals are in the
socket's language and its log lines carry the socket's id.
"""

from __future__ import annotations

import asyncio
import contextvars
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from django.conf import settings
from django.db import close_old_connections
from django.utils import translation


class PlayThreads:
    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=settings.PLAY_THREADS,
                                            thread_name_prefix="play")

    def _submit(self, function, *args) -> asyncio.Future:
        return asyncio.get_running_loop().run_in_executor(
            self._executor, contextvars.copy_context().run,
            partial(_in_thread, translation.get_language(), function, *args))

    async def run(self, function, *args) -> Any:
        """``function(*args)`` in one of the threads, in the caller's context."""
        return await self._submit(function, *args)


def _in_thread(language: str, function, *args):
    """Run ``function`` as a request would (module doc)."""
    close_old_connections()
    try:
        with translation.override(language):
            return function(*args)
    finally:
        close_old_connections()
