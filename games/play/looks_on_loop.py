"""A seated player's socket given a match at a ply is a look, for "your turn" by mail
(games/mail/looks.py): a push (games/play/hub.py ``deliver``) or a read up to date
(games/play/connection.py ``send_update``). Both run on the event loop, where no query may
run: the look counts by this process's last answer to "anyone mailable?"
(games/mail/mailable.py), and a stale answer is asked again in the hub's threads, one
asking at a time. With nobody mailable a look costs a clock read and a comparison."""

from __future__ import annotations

import asyncio
import logging

from games.mail import looks
from games.mail.mailable import anyone_mailable

logger = logging.getLogger(__name__)


class LooksOnLoop:
    def __init__(self, run) -> None:
        #: the hub's ``run``: a function in its threads (games/play/threads.py)
        self._run = run
        self._asking: asyncio.Task | None = None

    def looked(self, user_id: int, match_id: int, ply: int) -> None:
        """``user_id``, seated at ``match_id``, was given it at ``ply`` (on the loop)."""
        if looks.saw_on_loop(user_id, match_id, ply) and (
                self._asking is None or self._asking.done()):
            self._asking = asyncio.get_running_loop().create_task(self._ask())

    async def _ask(self) -> None:
        try:
            await self._run(anyone_mailable.refresh)
        except Exception:  # noqa: BLE001 - the database is away: the next look asks again
            logger.warning("could not ask whether anyone is mailable", exc_info=True)
