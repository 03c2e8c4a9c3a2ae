"""The check every way of sending goes through (games.chat.services.send_message calls it):
a user in time-out is refused with ``chat_timed_out`` (``details.until``), a banned user
with ``chat_banned``, before anything is stored."""

from __future__ import annotations

from games.chat.moderation.errors import ChatBanned, ChatTimedOut
from games.chat.moderation.models import SanctionKind
from games.chat.moderation.selectors import sanction_in_force


def refuse_if_sanctioned(user) -> None:
    sanction = sanction_in_force(getattr(user, "pk", None))
    if sanction is None:
        return
    if sanction.kind == SanctionKind.BAN:
        raise ChatBanned()
    raise ChatTimedOut(until=sanction.until.isoformat())
