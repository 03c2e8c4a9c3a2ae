"""One play socket (docs/play.md): the ASGI application served at ``/play/``.

A socket reads one message at a time and answers it in order; what it sends, and how, is
games/play/sending.py. Anything that needs the database runs in the hub's threads
(``hub.run``); the event loop only parses, routes and writes frames.
"""

from __future__ import annotations

import asyncio
import logging
import time

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from games.feed.selectors import resume_point
from games.feed.stream import follow as follow_feed
from games.live import frames
from games.matches.parsing import parse_match_id
from games.play import operations
from games.play.admission import SocketAdmission
from games.play.answers import database_busy_refusal, refused_frame, run_service
from games.play.chat_op import ChatOp
from games.play.hub import Follow, hub
from games.play.message_rate import MessageRate, penalty_box
from games.play.protocol import (
    CLOSE_FLOODING,
    CLOSE_SERVER_ERROR,
    CLOSE_UNAUTHENTICATED,
    ProtocolError,
    Request,
    error_frame,
    frame,
    optional_number,
    read_frame,
    ref_of,
)
from games.play.scopes import check_op_scope
from games.play.sending import SocketSending
from infra import throttles
from infra.api_errors import ApiError, Throttled
from infra.language import language_of_handshake
from infra.observability import metrics, request_id
from infra.outages import database_busy

logger = logging.getLogger(__name__)

#: how long a socket cut off for falling behind may take to read up to its close frame
CLOSE_DRAIN_SECONDS = 10.0


class PlayConnection(SocketAdmission, SocketSending, ChatOp):
    def __init__(self, scope, receive, send) -> None:
        super().__init__(send)
        self.scope, self._receive = scope, receive
        self.user = AnonymousUser()
        self.token: str | None = None
        self.password_at_hello: str | None = None  # a changed password ends the socket
        self.credential = None  # what hello signed in with: its scopes (games/play/scopes.py)
        self.ident = throttles.caller_ident(self.user, throttles.scope_meta(scope))
        self.follows: dict[int, Follow] = {}
        #: the language of its messages: the handshake's, or the one its hello chose
        self.language = language_of_handshake(scope)
        self._tasks: list[asyncio.Task] = []
        self._peer_gone = False  # the client closed, or the server is shutting down
        #: every frame received counts here first (games/play/message_rate.py)
        self._rate = MessageRate(settings.PLAY_MESSAGES_PER_SECOND,
                                 settings.PLAY_MESSAGE_BURST)
        self._admission_starts(scope)

    # -- the life of a socket -------------------------------------------------------------
    async def serve(self) -> None:
        if (await self._receive())["type"] != "websocket.connect":
            return
        # the connection's id (the handshake's X-Request-Id, or new), returned in the
        # handshake's answer; every message is served under it and its number
        connection_id = request_id.of_handshake(self.scope)
        await self._send({"type": "websocket.accept",
                          "headers": [(b"x-request-id", connection_id.encode())]})
        opened_at, messages = time.perf_counter(), 0
        with request_id.serving(connection_id):
            logger.info("play socket opened")
        metrics.socket_opened(metrics.PLAY)
        the_hub = hub()
        the_hub.sockets.add(self)
        writer = self._writer = asyncio.get_running_loop().create_task(self._write())
        self._tasks += [writer, asyncio.get_running_loop().create_task(self._heartbeat())]
        try:
            with request_id.serving(connection_id):  # the hello: the connection's own
                if not await self._admitted() or not await self._greeted():
                    return
            # every answer in the language the hello chose: set once for this task (and
            # the tasks it starts), not per message (1% of the web tier's CPU under load)
            with translation.override(self.language):
                while not self._closing:
                    text = await self._next_counted_text()
                    if text is None:
                        break
                    # each message is a request: its own id (the connection's and its
                    # number), in its log lines, the tasks it enqueues and its pushes
                    messages += 1
                    with request_id.serving(request_id.message_id(connection_id, messages)):
                        await self._answer(text)
        finally:
            with request_id.serving(connection_id):
                logger.info("play socket closed", extra={"fields": {
                    "messages": messages, "user_id": self.user.pk,
                    "duration_ms": round((time.perf_counter() - opened_at) * 1000, 1)}})
            metrics.socket_closed(metrics.PLAY)
            await self._give_places_back()
            metrics.unsubscribed(metrics.PLAY, len(self.follows))
            the_hub.sockets.discard(self)
            for match_id in list(self.follows):
                del self.follows[match_id]
                await the_hub.unfollow(self, match_id)
            for task in self._tasks:
                if task is not writer:
                    task.cancel()
            self._closing = True
            if self._peer_gone or not self._close_requested:
                writer.cancel()  # nobody to write to, or nothing more to write
            await asyncio.gather(writer, return_exceptions=True)
            if self._closer is not None:
                # the close frame waits behind what the kernel holds for a slow reader:
                # give it a while to drain, then let the server drop the connection
                await asyncio.wait({self._closer}, timeout=CLOSE_DRAIN_SECONDS)

    async def _next_counted_text(self) -> str | None:
        """The next message within the socket's message rate; None once the peer has
        gone, or once the socket is closed for flooding (4429). A message over the rate is
        not handled, but answered: ``throttled`` with its ``ref`` (a request gets one
        answer, whatever happens: a chat op so refused was not sent), until the run is a
        flood (games/play/message_rate.py)."""
        while True:
            text = await self._next_text()
            if text is None:
                return None
            wait = self._rate.take()
            if wait is None:
                return text
            if self._rate.flooding:
                logger.info("play socket of %s flooded past its message rate: closed",
                            self.user)
                penalty_box.hold(self._address, settings.PLAY_FLOOD_PENALTY_SECONDS)
                self.close(CLOSE_FLOODING, drop_queued=True)
                return None
            refusal = Throttled(throttles.retry_after_seconds(wait))
            self.enqueue(error_frame(refusal.code, refusal.message, refusal.details,
                                     ref_of(text)))

    async def _next_text(self) -> str | None:
        """The next text (or binary) message; None once the peer has gone."""
        while True:
            message = await self._receive()
            if message["type"] == "websocket.disconnect":
                self._closing = self._peer_gone = True
                return None
            if message["type"] == "websocket.receive":
                return message.get("text") if message.get("text") is not None \
                    else message.get("bytes")

    # -- sending ----------------------------------------------------------------------------
    def revoke(self) -> None:
        """The user's access ended (token deleted, user deactivated, password changed):
        nothing queued for them is sent any more; the socket closes with 4401."""
        if self._closing:
            return
        self.drop_queued()
        with translation.override(self.language):
            message = _("Your access was revoked: sign in again.")
        self.enqueue(error_frame("access_revoked", message))
        self.close(CLOSE_UNAUTHENTICATED)

    def send_update(self, match_id: int, body: dict, op: str = "update", *,
                    cause: str | None = None) -> None:
        """Send a ``sync`` or an ``update``; an update names the request that caused it
        (``cause``, else the one being served: infra/observability/request_id.py), and is
        a look when the socket's user is seated (games/mail/looks.py)."""
        follow = self.follows.get(match_id)
        if follow is None:
            return
        follow.ply, follow.status, follow.seat = body["ply"], body["status"], body["seat"]
        caused = frames.caused_by(cause) if op == "update" else {}
        self.push(match_id, frame(op, **body, **caused))
        if op == "update" and body["seat"] is not None:
            # a seated player read up to date looked (a ``sync`` was counted by its read:
            # games/play/operations.py ``subscription``)
            hub().looks.looked(self.user.pk, match_id, body["ply"])

    # -- every later message ----------------------------------------------------------------
    async def _answer(self, text) -> None:
        ref = None
        try:
            request = read_frame(text, max_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
            ref = request.ref
            check_op_scope(request.op, self.user, self.credential)
            await getattr(self, f"_op_{request.op}")(request)
        except ProtocolError as exc:
            self.enqueue(error_frame(exc.code, exc.message, exc.details, exc.ref))
        except ApiError as exc:
            self.enqueue(error_frame(exc.code, exc.message, exc.details, ref))
        except (OperationalError, InterfaceError) as exc:
            if database_busy(exc):
                busy = database_busy_refusal()
                self.enqueue(error_frame(busy.code, busy.message, busy.details, ref))
            else:
                self.enqueue(error_frame("database_unavailable", _(
                    "The database is unavailable; try again shortly."), {}, ref))
        except Exception:  # noqa: BLE001 - one bad message never ends the socket
            logger.exception("play socket message failed")
            self.enqueue(error_frame("internal_error", _("The server could not handle this "
                                                         "message."), {}, ref))

    def _signed_in(self, request: Request) -> None:
        if not self.user.is_authenticated:
            raise ProtocolError("authentication_required",
                                _("%(op)s needs a signed-in socket (hello with a token).")
                                % {"op": request.op},
                                ref=request.ref)

    async def _op_hello(self, request: Request) -> None:
        raise ProtocolError("already_authenticated", _("hello comes once per socket."),
                            ref=request.ref)

    async def _op_ping(self, request: Request) -> None:
        self.enqueue(frame("pong", request.ref))

    async def _op_subscribe(self, request: Request) -> None:
        match_id = parse_match_id(request.fields["match"])
        since = optional_number(request, "since")
        if match_id not in self.follows and \
                len(self.follows) >= settings.PLAY_MAX_SUBSCRIPTIONS:
            raise ProtocolError("too_many_subscriptions",
                                _("A socket follows at most %(count)s matches.")
                                % {"count": settings.PLAY_MAX_SUBSCRIPTIONS},
                                {"max": settings.PLAY_MAX_SUBSCRIPTIONS},
                                ref=request.ref)
        the_hub = hub()
        # Listen first, read second: a change in between is announced, never lost.
        await the_hub.follow(self, match_id)
        try:
            body = await the_hub.run(operations.subscription, match_id, since, self.user,
                                     self.ident)
        except BaseException:
            if match_id not in self.follows:
                await the_hub.unfollow(self, match_id)
            raise
        if match_id not in self.follows:
            metrics.subscribed(metrics.PLAY)
        self.follows[match_id] = Follow(ply=body["ply"], status=body["status"],
                                        seat=body["seat"])
        self.enqueue(frame("subscribed", request.ref, match=body["match"], seat=body["seat"]))
        self.send_update(match_id, body, op="sync")

    async def _op_unsubscribe(self, request: Request) -> None:
        match_id = parse_match_id(request.fields["match"])
        if self.follows.pop(match_id, None) is not None:
            metrics.unsubscribed(metrics.PLAY)
            await hub().unfollow(self, match_id)
        self.enqueue(frame("unsubscribed", request.ref, match=str(match_id)))

    async def _op_feed(self, request: Request) -> None:
        self._signed_in(request)
        if any(getattr(task, "is_feed", False) for task in self._tasks):
            raise ProtocolError("already_following", _("This socket follows its feed already."),
                                ref=request.ref)
        # 400 last_event_id_ahead past the newest event (games.feed.selectors), as REST says
        after = await hub().run(resume_point, self.user, optional_number(request, "after"))
        await hub().run(throttles.check, throttles.read_scope(self.user), self.ident)
        task = asyncio.get_running_loop().create_task(self._follow_feed(after))
        task.is_feed = True
        self._tasks.append(task)

    async def _follow_feed(self, after: int) -> None:
        try:
            async for event in follow_feed(self.user, after):
                if event is not None:
                    self.enqueue(frame("feed_event", event=event))
        except asyncio.CancelledError:
            raise
        except Exception:  # noqa: BLE001 - the client resyncs its feed after a reconnect
            logger.warning("play socket feed of %s ended", self.user, exc_info=True)
            self.close(CLOSE_SERVER_ERROR)

    async def _op_move(self, request: Request) -> None:
        started = time.perf_counter()
        self._signed_in(request)
        match_id = parse_match_id(request.fields["match"])
        expected = optional_number(request, "expected_ply")
        with self.answering_move(match_id):
            try:
                ply = await run_service(operations.play_move, self.user, self.ident,
                                        match_id, request.fields["move"], expected)
            except ApiError as exc:
                self.enqueue(refused_frame(request.ref, match_id, exc))
                metrics.play_move_answered(time.perf_counter() - started, acknowledged=False)
                metrics.app_error(metrics.app_label(self.user, self.credential), metrics.PLAY)
                return
            # this process's followers had their frames handed over by the commit
            # (games/live/fanout.py): the mover's own wait behind this ack
            self.enqueue(frame("ack", request.ref, match=str(match_id), ply=ply))
            metrics.app_move(metrics.app_label(self.user, self.credential))
            # the server's share of a move's round trip (docs/operations.md "Metrics")
            metrics.play_move_answered(time.perf_counter() - started, acknowledged=True)


async def play_application(scope, receive, send) -> None:
    """The ASGI application of ``/play/`` (config/asgi.py routes its websockets here)."""
    await PlayConnection(scope, receive, send).serve()
