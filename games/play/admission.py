"""A play socket's admission (docs/play.md "Limits"): its place among the open sockets of
its address (at connect) and of its user (at ``hello``), counted across the web processes
(games/play/open_sockets.py), and the penalty box that holds an address which flooded a
moment ago (games/play/message_rate.py). A mixin of games/play/connection.py's socket,
which gives it ``language``, ``enqueue`` and ``close``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext as _

from games.play.hub import hub
from games.play.message_rate import penalty_box
from games.play.open_sockets import address_key, open_sockets
from games.play.protocol import CLOSE_FLOODING, CLOSE_TOO_MANY_SOCKETS, error_frame
from infra import throttles
from infra.api_errors import Throttled

logger = logging.getLogger(__name__)


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
