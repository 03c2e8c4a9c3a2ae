"""A play socket's admission (docs/play.md "Limits"): its place among the open sockets of
its address (at connect) and of its user (at ``hello``), counted across the web processes
(games/play/open_sockets.py), the penalty box that holds an address which flooded a
moment ago (games/play/message_rate.py), and the ``hello`` that signs the socket in (or
leaves it anonymous) within HELLO_SECONDS. A mixin of games/play/connection.py's socket,
which gives it ``scope``, ``user``, ``ident``, ``language``, ``_next_counted_text``,
``enqueue`` and ``close``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.utils import translation
from django.utils.translation import gettext as _

from games.graphql.auth import InvalidToken
from games.play import operations
from games.play.hub import hub
from games.play.message_rate import penalty_box
from games.play.open_sockets import address_key, open_sockets, user_key
from games.play.protocol import (
    CLOSE_FLOODING,
    CLOSE_TOO_MANY_SOCKETS,
    CLOSE_UNAUTHENTICATED,
    ProtocolError,
    error_frame,
    frame,
    read_frame,
)
from infra import throttles
from infra.api_errors import ApiError, Throttled
from infra.language import supported_language
from infra.observability import request_id

logger = logging.getLogger(__name__)

#: the first message must come this soon after the handshake
HELLO_SECONDS = 10.0
#: refusals of a ``hello`` that another ``hello`` may overcome: the socket stays open
PASSING_REFUSALS = ("throttled", "database_unavailable")


class SocketAdmission:
    language: str

    def _admission_starts(self, scope) -> None:
        #: this socket in the counts of open sockets (games/play/open_sockets.py), and
        #: the places it holds there (an address's, then a user's)
        self._member = secrets.token_hex(8)
        self._address = throttles.client_address(throttles.scope_meta(scope))
        self._places: list[str] = []

    async def _admitted(self) -> bool:
        """Take this socket's place among its address's open sockets, refused
        (``too_many_sockets``, close 4430) when the address holds
        PLAY_MAX_SOCKETS_PER_ADDRESS already; then hold a socket from an address in the
        penalty box (it flooded a moment ago): told ``throttled``, it is not read until
        its penalty ends (TCP pushes back on a client that goes on sending: no CPU here),
        then closed with 4429. An immediate close would only bring it back at once."""
        with translation.override(self.language):
            too_many = _("Too many sockets are open from your address (at most %(count)s).")
        if not await self._take_place(address_key(self._address),
                                      settings.PLAY_MAX_SOCKETS_PER_ADDRESS, too_many):
            return False
        penalty = penalty_box.holds(self._address)
        if penalty is None:
            return True
        with translation.override(self.language):
            refusal = Throttled(throttles.retry_after_seconds(penalty))
        self.enqueue(error_frame(refusal.code, refusal.message, refusal.details))
        await asyncio.sleep(penalty)
        self.close(CLOSE_FLOODING)
        return False

    async def _take_place(self, key: str, limit: int, message: str, ref=None) -> bool:
        the_hub = hub()
        try:
            taken = await the_hub.run(open_sockets.claim, key, self._member, limit)
        except Exception:  # noqa: BLE001 - a count that fails never locks anyone out
            logger.warning("play socket count of %s failed", key, exc_info=True)
            return True
        if not taken:
            with translation.override(self.language):
                text = message % {"count": limit}
            self.enqueue(error_frame("too_many_sockets", text, {"max": limit}, ref))
            self.close(CLOSE_TOO_MANY_SOCKETS)
            return False
        self._places.append(key)
        open_sockets.keep_renewing(the_hub.run)
        return True

    async def _give_places_back(self) -> None:
        for key in self._places:
            try:
                await hub().run(open_sockets.release, key, self._member)
            except Exception:  # noqa: BLE001 - its lease ends by itself
                logger.warning("play socket place %s not given back", key, exc_info=True)
        self._places.clear()

    # -- hello ------------------------------------------------------------------------------
    async def _greeted(self) -> bool:
        """Wait for a ``hello`` that opens the socket, within HELLO_SECONDS of the
        handshake. A refusal that another try may cure (throttled, the database away)
        leaves the socket open for another ``hello``; any other closes it (4401)."""
        deadline = asyncio.get_running_loop().time() + HELLO_SECONDS
        while True:
            try:
                text = await asyncio.wait_for(
                    self._next_counted_text(), deadline - asyncio.get_running_loop().time())
            except TimeoutError:
                text = None
            if text is None:
                self.close(CLOSE_UNAUTHENTICATED)
                return False
            with request_id.serving(None):
                answer = await self._hello(text)
            if answer is not None:
                return answer

    async def _hello(self, text) -> bool | None:
        """Read the frame once, in the handshake's language (a frame that cannot be read
        names no language); a ``hello`` with ``lang`` then answers in that one."""
        with translation.override(self.language):
            try:
                request, unreadable = read_frame(
                    text, max_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE), None
            except ProtocolError as exc:
                request, unreadable = None, exc
        if request is not None and request.op == "hello" and "lang" in request.fields:
            # the socket's own choice; an unknown one leaves the handshake's
            self.language = supported_language(request.fields["lang"]) or self.language
        with translation.override(self.language):
            return await self._hello_in_language(request, unreadable)

    async def _hello_in_language(self, request, unreadable: ProtocolError | None
                                 ) -> bool | None:
        """True once signed in (or anonymous); False after a final refusal; None after a
        passing one (throttled, database unavailable)."""
        if unreadable is not None:
            refusal = (unreadable.code, unreadable.message, unreadable.details,
                       unreadable.ref)
        else:
            refusal = None if request.op == "hello" else (
                "authentication_required", _("The first message must be hello."), {},
                request.ref)
        if refusal is None:
            token = request.fields.get("token")
            try:
                self.user, self.password_at_hello, self.credential = await hub().run(
                    operations.authenticate_credential, token, self.ident)
            except InvalidToken as exc:
                refusal = (exc.code, exc.message, {"reason": exc.reason}, request.ref)
            except ApiError as exc:
                refusal = (exc.code, exc.message, exc.details, request.ref)
            except (OperationalError, InterfaceError):
                refusal = ("database_unavailable", _("The database is unavailable; try "
                                                     "again shortly."), {}, request.ref)
        if refusal is not None:
            self.enqueue(error_frame(*refusal))
            if refusal[0] in PASSING_REFUSALS:
                return None
            self.close(CLOSE_UNAUTHENTICATED)
            return False
        if self.user.is_authenticated and not await self._take_place(
                user_key(self.user), settings.PLAY_MAX_SOCKETS_PER_USER,
                _("You have too many sockets open (at most %(count)s): close one."),
                request.ref):
            return False
        self.token = token if self.user.is_authenticated else None
        if self.token:
            hub().watch_access()
        self.ident = throttles.caller_ident(self.user, throttles.scope_meta(self.scope))
        user = ({"id": self.user.pk, "username": self.user.username}
                if self.user.is_authenticated else None)
        self.enqueue(frame("welcome", request.ref, user=user, lang=self.language,
                           heartbeat_seconds=settings.PLAY_HEARTBEAT_SECONDS,
                           max_message_bytes=settings.DATA_UPLOAD_MAX_MEMORY_SIZE,
                           max_subscriptions=settings.PLAY_MAX_SUBSCRIPTIONS))
        return True
