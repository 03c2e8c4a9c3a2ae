"""How fast one user may write into one room (docs/chat.md "Limits"): at most
``CHAT_BURST`` messages in any ``CHAT_BURST_SECONDS`` window, and ``CHAT_PER_MINUTE`` in
any clock minute. Counted in the shared Redis (infra/counters.py: every web process sees
the same count; each counts alone while Redis is away), per user and room, so a lively
spectators' room does not silence the same user at their own table.

Fixed windows, as the REST limits (infra/throttles.py): one INCR each, and a burst of
up to twice a rate can straddle a window's edge, which is fine against a flood.
"""

from __future__ import annotations

import math
import time

from django.conf import settings

from games.chat.errors import ChatRateLimited
from infra import counters


def check(user_id: int, match_id: int, kind: str) -> None:
    """Count one message of ``user_id`` in the match's room of ``kind`` (named by match and
    kind, so a room's first message is counted before its row exists: the count comes
    before the sending transaction); raise ChatRateLimited (429,
    ``details.retry_after_seconds``) when either window is over its rate."""
    now = time.time()
    waits = []
    for name, limit, seconds in (("burst", settings.CHAT_BURST, settings.CHAT_BURST_SECONDS),
                                 ("minute", settings.CHAT_PER_MINUTE, 60)):
        window = int(now // seconds)
        count = counters.add(f"chat:{name}:{user_id}:{match_id}:{kind}:{window}", seconds + 1)
        if count > limit:
            waits.append((window + 1) * seconds - now)
    if waits:
        raise ChatRateLimited(max(1, math.ceil(max(waits))))
