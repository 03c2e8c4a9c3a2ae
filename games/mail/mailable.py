"""Whether anyone at all has a confirmed mail address: while nobody has, nothing of the
e-mail channel is worth doing on the hot path (the looks of games/mail/looks.py are read
only by a "your turn" mail, which goes only to a confirmed address).

The answer is this process's, asked at most once per MAIL_LOOKS_CHECK_SECONDS
(infra/checked_every.py). A thread that may query asks it when stale (``anyone_mailable()``);
an event loop reads the last answer (``anyone_mailable.known()``) and has it asked again
in its threads (games/play/looks_on_loop.py). The process that confirms an address knows at once
(``services.confirm``); the others within MAIL_LOOKS_CHECK_SECONDS (plus one query on the
loop's side). Until then a look of that player may go unrecorded: the worst that follows
is one "your turn" mail too many, as with a Redis that is away.
"""

from __future__ import annotations

from games.notifications.reach import confirmed_addresses
from infra.checked_every import CheckedEvery


def _anyone_confirmed() -> bool:
    return confirmed_addresses().exists()


anyone_mailable: CheckedEvery[bool] = CheckedEvery(
    "MAIL_LOOKS_CHECK_SECONDS", _anyone_confirmed, False)
