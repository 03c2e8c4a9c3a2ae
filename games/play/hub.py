"""One web process's play sockets: who follows which match, and bringing them up to date.

Every change of a match is announced on the channel layer (games.matches.notifications:
match id, ply and status, nothing hidden). A process listens once, on one channel of its
own that joins the group of each match at least one of its sockets follows, and brings
its followers of that match up to date with one read (``pushes.load_since``) whatever their
number. The process where a move was made does not wait for that: it pushes to its own
followers straight from what the move service returned (``deliver``), and the
announcement of that same move is then recognised and skipped.

Database work runs in a small pool of threads of this process (``run``): Django's ORM is
synchronous, and a socket never blocks the event loop that serves all the others.

Each follower is brought up to date from the ply it was last sent (``Follow.ply``), so
every ``update`` carries exactly the moves since the previous one, in order.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections
from rest_framework.authtoken.models import Token

from games.matches.notifications import MATCH_UPDATE_TYPE, match_group_name
from games.play import pushes
from games.play.protocol import frame

#: a socket (games.play.connection.PlayConnection): its ``user``, ``follows``,
#: ``send_update`` and ``enqueue`` are all the hub uses
Socket = Any

logger = logging.getLogger(__name__)

#: a lost channel layer is retried after this long (then doubling, up to the maximum)
RECONNECT_SECONDS, RECONNECT_MAX_SECONDS = 0.5, 10.0


@dataclass
class Follow:
    """One socket following one match: the ply and status it was last sent, and the
    (ply, status) it was sent straight from a move in this process, whose announcement is
    then not read again."""

    ply: int
    status: str
    pushed_from_move: tuple[int, str] | None = None


@dataclass
class _MatchFollowers:
    sockets: set = field(default_factory=set)
    refreshing: bool = False
    again: bool = False


def _in_thread(function, *args):
    """Run ``function`` as a request would: with a usable database connection, given back
    to the pool afterwards (as Channels' database_sync_to_async does)."""
    close_old_connections()
    try:
        return function(*args)
    finally:
        close_old_connections()


class Hub:
    def __init__(self) -> None:
        self._executor = ThreadPoolExecutor(max_workers=settings.PLAY_THREADS,
                                            thread_name_prefix="play")
        self._matches: dict[int, _MatchFollowers] = {}
        self._channel: str | None = None
        self._listener: asyncio.Task | None = None
        self._access_watch: asyncio.Task | None = None
        self.sockets: set[Socket] = set()

    # -- threads --------------------------------------------------------------------------
    async def run(self, function, *args) -> Any:
        """``function(*args)`` in one of the hub's threads."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, partial(_in_thread, function, *args))

    # -- who follows what -----------------------------------------------------------------
    async def follow(self, socket: Socket, match_id: int) -> None:
        """Let ``socket`` hear of ``match_id`` (its ``Follow`` is set by the caller once
        it has read the match: a change in between is announced, never lost)."""
        self._ensure_listening()
        followers = self._matches.get(match_id)
        if followers is None:
            followers = self._matches[match_id] = _MatchFollowers()
            await self._group("group_add", match_id)
        followers.sockets.add(socket)

    async def unfollow(self, socket: Socket, match_id: int) -> None:
        followers = self._matches.get(match_id)
        if followers is None:
            return
        followers.sockets.discard(socket)
        if not followers.sockets:
            del self._matches[match_id]
            await self._group("group_discard", match_id)

    async def _group(self, action: str, match_id: int) -> None:
        layer = get_channel_layer()
        if layer is None or self._channel is None:
            return
        try:
            await getattr(layer, action)(match_group_name(match_id), self._channel)
        except Exception:  # noqa: BLE001 - the listener re-joins every group on reconnect
            logger.warning("play hub could not %s match %s", action, match_id, exc_info=True)

    # -- pushing straight from a move -----------------------------------------------------
    def deliver(self, match_id: int, bodies: dict[Socket, dict]) -> None:
        """Send each socket its ``update`` built in this process from a committed move
        (``bodies`` were built from the ply each socket had been sent when the move was
        made; one whose ply moved on meanwhile is brought up to date from the database)."""
        behind = False
        for socket, body in bodies.items():
            follow = socket.follows.get(match_id)
            if follow is None:
                continue
            if follow.ply != body["since"]:
                behind = behind or follow.ply < body["ply"]
                continue
            socket.send_update(match_id, body)
            follow.pushed_from_move = (body["ply"], body["status"])
        if behind:
            self.refresh_soon(match_id)

    def followers_from(self, match_id: int) -> list[tuple[Socket, Any, int]]:
        """``(socket, user, ply it was last sent)`` of every local follower of a match."""
        followers = self._matches.get(match_id)
        if followers is None:
            return []
        return [(socket, socket.user, socket.follows[match_id].ply)
                for socket in followers.sockets if match_id in socket.follows]

    # -- announcements from the channel layer ---------------------------------------------
    def _ensure_listening(self) -> None:
        if self._listener is None or self._listener.done():
            self._listener = asyncio.get_running_loop().create_task(self._listen())

    # -- access: a revoked token, a deactivated user, a changed password ------------------
    def watch_access(self) -> None:
        """Check every signed-in socket's access every PLAY_ACCESS_CHECK_SECONDS, with one
        query for the whole process, and close (4401) those whose token was deleted, whose
        user was deactivated or whose password changed since their ``hello``."""
        if self._access_watch is None or self._access_watch.done():
            self._access_watch = asyncio.get_running_loop().create_task(self._check_access())

    async def _check_access(self) -> None:
        while True:
            await asyncio.sleep(settings.PLAY_ACCESS_CHECK_SECONDS)
            holders = [socket for socket in self.sockets if socket.token]
            if not holders:
                continue
            try:
                current = await self.run(_access_now, {socket.token for socket in holders})
            except Exception:  # noqa: BLE001 - the database is away: check again next time
                logger.warning("play hub could not check access", exc_info=True)
                continue
            for socket in holders:
                if current.get(socket.token) != socket.password_at_hello:
                    socket.revoke()

    async def _listen(self) -> None:
        wait = RECONNECT_SECONDS
        while True:
            layer = get_channel_layer()
            if layer is None:
                return
            try:
                if self._channel is None:
                    self._channel = await layer.new_channel("play.")
                    for match_id in list(self._matches):
                        await layer.group_add(match_group_name(match_id), self._channel)
                    # what was announced while we were away is read now
                    for match_id in list(self._matches):
                        self.refresh_soon(match_id)
                wait = RECONNECT_SECONDS
                message = await layer.receive(self._channel)
            except asyncio.CancelledError:
                raise
            except Exception:  # noqa: BLE001 - Redis away: retry, then catch up
                logger.warning("play hub lost the channel layer; retrying in %.1f s", wait,
                               exc_info=True)
                self._channel = None
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECONNECT_MAX_SECONDS)
                continue
            if message.get("type") == MATCH_UPDATE_TYPE:
                self._announced(message)

    def _announced(self, message: dict) -> None:
        match_id, ply, status = message.get("match_id"), message.get("ply"), message.get("status")
        followers = self._matches.get(match_id)
        if followers is None or not isinstance(ply, int):
            return
        stale = False
        for socket in followers.sockets:
            follow = socket.follows.get(match_id)
            if follow is None:
                continue
            if follow.pushed_from_move == (ply, status):
                follow.pushed_from_move = None  # this process pushed that move already
                continue
            if follow.ply > ply:
                continue
            stale = True
        if stale:
            self.refresh_soon(match_id)

    # -- bringing followers up to date from the database -----------------------------------
    def refresh_soon(self, match_id: int) -> None:
        followers = self._matches.get(match_id)
        if followers is None:
            return
        if followers.refreshing:
            followers.again = True  # one more read once this one is done
            return
        followers.refreshing = True
        asyncio.get_running_loop().create_task(self._refresh(match_id, followers))

    async def _refresh(self, match_id: int, followers: _MatchFollowers) -> None:
        try:
            while True:
                followers.again = False
                readers = self.followers_from(match_id)
                if not readers:
                    return
                try:
                    bodies = await self.run(_bodies_from_database, match_id, readers)
                except Exception:  # noqa: BLE001 - a later announcement or resync catches up
                    logger.warning("play hub could not read match %s", match_id,
                                   exc_info=True)
                    return
                for socket, body in bodies.items():
                    follow = socket.follows.get(match_id)
                    if follow is None or follow.ply != body["since"]:
                        continue  # moved on meanwhile (a move pushed directly): skip
                    socket.send_update(match_id, body)
                if not followers.again:
                    return
        finally:
            followers.refreshing = False

    # -- the whole process ---------------------------------------------------------------
    def frame_all(self, op: str) -> None:
        for socket in list(self.sockets):
            socket.enqueue(frame(op))


def _access_now(tokens: set[str]) -> dict[str, str]:
    """Each token that still opens the API, with its user's password hash now."""
    return dict(Token.objects.filter(key__in=tokens, user__is_active=True)
                .values_list("key", "user__password"))


def _bodies_from_database(match_id: int, readers) -> dict:
    """Each reader's ``update`` from one read of the match and its moves since the oldest
    ply any of them was sent."""
    oldest = min(since for _socket, _user, since in readers)
    try:
        match, state, moves = pushes.load_since(match_id, oldest)
    except Exception:  # noqa: BLE001 - the match vanished (deleted by an admin)
        logger.info("match %s could not be read for its followers", match_id, exc_info=True)
        return {}
    bodies = {}
    for socket, user, since in readers:
        since = min(since, match.ply)
        shown = [move for move in moves if move.ply >= since]
        bodies[socket] = pushes.match_body(match, state, shown, user, since)
    return bodies


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub, made on first use (inside the event loop that serves it)."""
    global _hub
    if _hub is None:
        _hub = Hub()
    return _hub
