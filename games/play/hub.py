"""One web process's play sockets: who follows which match, and bringing them up to date.
A transport: what a reader is sent is built by games/live/, which also registers this hub
as the process's own (``games.live.followers.register_local_hub``), so a change committed
here reaches its sockets at once.

A process holds one Redis Pub/Sub connection (infra/pubsub_subscriber.py: each message
handled as it is read), subscribed to the channel of each match at least one of its
sockets follows (games.live.channels). Two kinds of message arrive there
(games/live/fanout.py):

- a change with its frames ready-made, one per seat and one for spectators, already
  encoded, and who held which seat then (``PLAY_PUSHES_TYPE``): a follower is sent the text
  of the seat its user held, and no process reads the match again;
- any other change (one nobody followed when it was made, a join, a hand-over, a
  timeout) is announced by match, ply and status only, and the process brings its
  followers up to date with one read of the match whatever their number
  (``frames.load_since``), each as who they are now.

A follower's seat is never taken from memory: each frame is picked by the seat its user
held at the change, and a read is made as the user. Each follower is brought up to date
from the ply it was last sent (``Follow.ply``): every ``update`` carries exactly the moves
since the previous one, in order, and a follower that finds a gap is read up to date
instead. A lost message (Redis away, a process killed between its commit and its push) is
caught by a check of the followed matches' plies, statuses and seat holders every
PLAY_RESYNC_SECONDS.

Database work runs in a small pool of threads of this process (``run``,
games/play/threads.py), and what it does is in games/play/operations.py.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings

from accounts.revocation import ACCESS_REVOKED_TYPE, concerns
from games.live.channels import (
    CHAT_PUSH_TYPE,
    MATCH_UPDATE_TYPE,
    PLAY_PUSHES_TYPE,
    play_channel,
)
from games.live.followers import register_local_hub
from games.live.frames import seat_key
from games.play import operations
from games.play.chat_delivery import deliver_chat
from games.play.looks_on_loop import LooksOnLoop
from games.play.threads import PlayThreads
from infra import pubsub
from infra.observability import request_id
from infra.pubsub_subscriber import Subscriber

logger = logging.getLogger(__name__)

#: a lost Redis connection is retried after this long (then doubling, up to the maximum)
RECONNECT_SECONDS, RECONNECT_MAX_SECONDS = 0.5, 10.0

#: a socket (games.play.connection.PlayConnection): its ``user``, ``follows``,
#: ``send_update``, ``push`` and ``revoke`` are all the hub uses
Socket = Any


def seat_held(holders: dict, user) -> int | None:
    """The seat ``user`` held at a change (``holders``: games.live.frames.holders);
    None: a spectator (anonymous, or holding none)."""
    return holders.get(str(user.pk)) if user.is_authenticated else None


@dataclass
class Follow:
    """One socket following one match: the ply, status and seat it was last sent (the
    seat so a change of hands is noticed, never to choose what it is sent)."""

    ply: int
    status: str
    seat: int | None


@dataclass
class _MatchFollowers:
    sockets: set = field(default_factory=set)
    refreshing: bool = False
    again: bool = False
    #: ply -> the request id of the change that brought the match to it: an update read
    #: from the database carries the one of the ply it shows (a few recent plies kept)
    causes: dict = field(default_factory=dict)

    def caused(self, ply: int, cause: str | None) -> None:
        if cause:
            self.causes[ply] = cause
            while len(self.causes) > 16:
                del self.causes[next(iter(self.causes))]


class Hub:
    def __init__(self) -> None:
        #: database work off the event loop (games/play/threads.py)
        self.run = PlayThreads().run
        self.looks = LooksOnLoop(self.run)  # seated sockets' looks, for mail (no query)
        #: the loop serving the sockets: set by the first follow (``deliver_threadsafe``)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._matches: dict[int, _MatchFollowers] = {}
        #: subscribed to the followed matches' channels while it lives
        self._pubsub: Subscriber | None = None
        self._opening = asyncio.Lock()  # one opening of it at a time (``_open_pubsub``)
        self._tasks: dict[str, asyncio.Task] = {}
        self.sockets: set[Socket] = set()
        #: this hub's own messages come back to it on the channels it follows: each starts
        #: with its origin, so the listener drops them unread (its followers had them)
        self.origin = secrets.token_hex(8)
        self._own_prefix = pubsub.encode({"origin": self.origin})[:-1]

    def _keep_running(self, name: str, job) -> None:
        task = self._tasks.get(name)
        if task is None or task.done():
            self._tasks[name] = asyncio.get_running_loop().create_task(job())

    # -- who follows what -----------------------------------------------------------------
    async def follow(self, socket: Socket, match_id: int) -> None:
        """Let ``socket`` hear of ``match_id`` (its ``Follow`` is set by the caller once
        it has read the match: a change in between is announced, never lost)."""
        self._loop = asyncio.get_running_loop()
        self._keep_running("resync", self._resync)
        followers = self._matches.get(match_id)
        if followers is None:
            followers = self._matches[match_id] = _MatchFollowers()
            await self._subscription("subscribe", match_id)
        followers.sockets.add(socket)
        self._keep_running("listen", self._listen)

    async def unfollow(self, socket: Socket, match_id: int) -> None:
        followers = self._matches.get(match_id)
        if followers is None:
            return
        followers.sockets.discard(socket)
        if not followers.sockets:
            del self._matches[match_id]
            await self._subscription("unsubscribe", match_id)

    async def _open_pubsub(self) -> None:
        """Subscribe to the revocations and to every followed match's channel; what was
        announced while this process was not listening is read now. The connection is
        the hub's only once it is subscribed, and one opening runs at a time: before,
        the listener and the first sockets' follows raced over a half-open one at start
        (the listener read it before it had a connection and reopened it after 0.5 s, and
        a second follow could subscribe on a connection that the first then replaced)."""
        async with self._opening:
            if self._pubsub is not None:
                return  # another coroutine opened it while this one waited
            self._pubsub = await Subscriber.open(
                pubsub.redis_url(),
                [pubsub.ACCESS_REVOKED_CHANNEL,
                 *(play_channel(match_id) for match_id in self._matches)],
                self._heard)
        for match_id in list(self._matches):
            self.refresh_soon(match_id)

    async def _subscription(self, action: str, match_id: int) -> None:
        subscriber = None
        try:
            if self._pubsub is None:
                if action != "subscribe":
                    return  # the next opening subscribes to the followed matches only
                # an opening that began before this match was followed did not include
                # it: subscribed below too (again, at worst: Redis takes that as a no-op)
                await self._open_pubsub()
            subscriber = self._pubsub
            await getattr(subscriber, action)(play_channel(match_id))
        except Exception:  # noqa: BLE001 - the listener subscribes again on reconnect
            logger.warning("play hub could not %s match %s", action, match_id, exc_info=True)
            self._drop_pubsub(subscriber)

    def _drop_pubsub(self, subscriber: Subscriber | None = None) -> None:
        """Forget the Pub/Sub connection (closing it): the listener opens a new one. Given
        ``subscriber``, only if that is still the one: a newer one is kept."""
        if self._pubsub is not None and subscriber in (None, self._pubsub):
            self._pubsub.close()
            self._pubsub = None

    def followers_of(self, match_id: int) -> list[Socket]:
        followers = self._matches.get(match_id)
        return list(followers.sockets) if followers is not None else []

    # -- a change's ready-made frames -----------------------------------------------------
    def follows(self, match_id: int) -> bool:
        """Whether a socket here follows ``match_id`` (asked from any thread)."""
        return match_id in self._matches

    def deliver_threadsafe(self, message: dict) -> None:
        """``deliver`` on the hub's loop, from the thread that committed the change."""
        self._loop.call_soon_threadsafe(self.deliver, message)

    def deliver(self, message: dict) -> None:
        """Send each follower of the match the frame of the seat its user held at the
        change (``message["holders"]``: games/live/frames.py ``change_frames``), if it was
        last sent the ply the change was made at; one that was not is read up to date
        instead. A change without a move (the end) is sent to a follower at its ply that
        was not sent its status yet."""
        match_id, since = message["match_id"], message["since"]
        shown = (message["ply"], message["status"])
        # a release before this one sent bodies, or no holders (a rolling restart mixes
        # them): its followers are read up to date instead, and the listener lives on
        frames, holders = message.get("frames"), message.get("holders")
        if not isinstance(frames, dict) or not isinstance(holders, dict):
            frames, holders = {}, None
        behind = False
        for socket in self.followers_of(match_id):
            follow = socket.follows.get(match_id)
            if follow is None or follow.ply > since or (follow.ply, follow.status) == shown:
                continue  # sent already (read meanwhile) or further on
            seat = None if holders is None else seat_held(holders, socket.user)
            text = frames.get(seat_key(seat))
            if follow.ply < since or not isinstance(text, str):
                behind = True
                continue
            follow.ply, follow.status, follow.seat = message["ply"], message["status"], seat
            socket.push(match_id, text)
            if seat is not None:  # a player's screen shows this ply
                self.looks.looked(socket.user.pk, match_id, message["ply"])
        if behind:
            self.refresh_soon(match_id, message["ply"],
                              request_id.sane(message.get("request_id")))

    # -- announcements over Pub/Sub ---------------------------------------------------------
    async def _listen(self) -> None:
        """Keep the hub's Pub/Sub connection open for as long as the process serves
        sockets: its messages are handled as they are read (``_heard``); a lost one is
        opened again after a pause (doubling while Redis stays away), and the followed
        matches are read up to date then (``_open_pubsub``)."""
        loop = asyncio.get_running_loop()
        wait = RECONNECT_SECONDS
        while True:
            try:
                if self._pubsub is None:
                    await self._open_pubsub()
                subscriber, opened_at = self._pubsub, loop.time()
                lost_with = await subscriber.closed
            except asyncio.CancelledError:
                self._drop_pubsub()
                raise
            except Exception:  # noqa: BLE001 - Redis away: retry, then catch up
                logger.warning("play hub cannot reach Redis; retrying in %.1f s", wait,
                               exc_info=True)
            else:
                if self._pubsub is subscriber:
                    self._pubsub = None
                if loop.time() - opened_at > RECONNECT_MAX_SECONDS:
                    wait = RECONNECT_SECONDS  # it served a while: not Redis refusing us
                logger.warning("play hub lost Redis (%s); retrying in %.1f s",
                               lost_with or "connection closed", wait)
            await asyncio.sleep(wait)
            wait = min(wait * 2, RECONNECT_MAX_SECONDS)

    def _heard(self, channel: bytes, data: bytes) -> None:
        """One message from the Pub/Sub connection (called as it is read)."""
        if data.startswith(self._own_prefix):
            return
        body = pubsub.decode(data)
        if body is None:
            return
        kind = body.get("type")
        if kind == PLAY_PUSHES_TYPE:
            self.deliver(body)
        elif kind == MATCH_UPDATE_TYPE:
            self._announced(body)
        elif kind == CHAT_PUSH_TYPE:
            deliver_chat(self, body)
        elif kind == ACCESS_REVOKED_TYPE:
            self._revoked(body)

    def _revoked(self, message: dict) -> None:
        """A user's access was revoked (accounts/revocation.py): their sockets here end
        before anything more is sent to them (only those opened with the revoked keys when
        the message names some: one app's or one personal token)."""
        user_id = message.get("user_id")
        for socket in list(self.sockets):
            if socket.token and socket.user.pk == user_id and concerns(message, socket.token):
                socket.revoke()

    def _announced(self, message: dict) -> None:
        match_id, ply = message.get("match_id"), message.get("ply")
        if not isinstance(ply, int):
            return
        if any(socket.follows[match_id].ply <= ply for socket in self.followers_of(match_id)
               if match_id in socket.follows):
            self.refresh_soon(match_id, ply, request_id.sane(message.get("request_id")))

    async def _resync(self) -> None:
        """The safety net under the messages: every PLAY_RESYNC_SECONDS, one read of the
        ply, status and seat holders of every followed match; followers that are behind,
        or were last sent another seat than their user holds now, are read up to date."""
        while True:
            await asyncio.sleep(settings.PLAY_RESYNC_SECONDS)
            followed = list(self._matches)
            if not followed:
                continue
            try:
                now = await self.run(operations.plies_statuses_and_holders, followed)
            except Exception:  # noqa: BLE001 - the database is away: next time
                logger.warning("play hub could not check its matches", exc_info=True)
                continue
            for match_id in self.out_of_step(now):
                self.refresh_soon(match_id)

    def out_of_step(self, now: dict[int, tuple[int, str, dict]]) -> list[int]:
        """The matches (``now``: each one's ply, status and seat holders, as the database
        has them) with a follower last sent another ply, status or seat than that."""
        return [match_id for match_id, (ply, status, holders) in now.items()
                if any((follow.ply, follow.status, follow.seat)
                       != (ply, status, seat_held(holders, socket.user))
                       for socket in self.followers_of(match_id)
                       if (follow := socket.follows.get(match_id)) is not None)]

    # -- bringing followers up to date from the database -----------------------------------
    def refresh_soon(self, match_id: int, ply: int | None = None,
                     cause: str | None = None) -> None:
        """Read the match's followers up to date; ``cause``: the request id of the change
        that brought the match to ``ply``, which an update showing that ply carries."""
        followers = self._matches.get(match_id)
        if followers is None:
            return
        if ply is not None:
            followers.caused(ply, cause)
        if followers.refreshing:
            followers.again = True  # one more read once this one is done
            return
        followers.refreshing = True
        asyncio.get_running_loop().create_task(self._refresh(match_id, followers))

    async def _refresh(self, match_id: int, followers: _MatchFollowers) -> None:
        try:
            while True:
                followers.again = False
                readers = [(socket, socket.user, socket.follows[match_id].ply)
                           for socket in self.followers_of(match_id)
                           if match_id in socket.follows]
                if not readers:
                    return
                try:
                    bodies = await self.run(operations.bodies_from_database, match_id,
                                            readers)
                except Exception:  # noqa: BLE001 - the resync check tries again
                    logger.warning("play hub could not read match %s", match_id,
                                   exc_info=True)
                    return
                for socket, body in bodies.items():
                    follow = socket.follows.get(match_id)
                    if follow is None or follow.ply != body["since"]:
                        continue  # moved on meanwhile (a move's push): skip
                    socket.send_update(match_id, body,
                                       cause=followers.causes.get(body["ply"]))
                if not followers.again:
                    return
        finally:
            followers.refreshing = False

    # -- access: a revoked token, a deactivated user, a changed password ------------------
    def watch_access(self) -> None:
        """Close (4401) the signed-in sockets whose access is revoked: at once when the
        revocation is announced (``ACCESS_REVOKED_CHANNEL``, heard by ``_listen``), and,
        for an announcement lost with Redis, by a check of every signed-in socket's token
        every PLAY_ACCESS_CHECK_SECONDS, with one query for the whole process (a token
        deleted, a user deactivated, a password changed since their ``hello``)."""
        self._keep_running("listen", self._listen)
        self._keep_running("access", self._check_access)

    async def _check_access(self) -> None:
        while True:
            await asyncio.sleep(settings.PLAY_ACCESS_CHECK_SECONDS)
            holders = [socket for socket in self.sockets if socket.token]
            if not holders:
                continue
            try:
                current = await self.run(operations.access_now,
                                       {socket.token for socket in holders})
            except Exception:  # noqa: BLE001 - the database is away: check again next time
                logger.warning("play hub could not check access", exc_info=True)
                continue
            for socket in holders:
                if current.get(socket.token) != socket.password_at_hello:
                    socket.revoke()


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub, made on first use (inside the event loop that serves it), and
    registered as the process's own with games/live/."""
    global _hub
    if _hub is None:
        _hub = Hub()
        register_local_hub(_hub)
    return _hub
