"""The chat's metric families (Prometheus; multiprocess as infra/observability/metrics.py
explains): messages sent by room kind, messages refused by reason. Labels are bounded: a
room kind, or a refusal's stable code from ``REFUSAL_REASONS`` (any other is ``other``),
never a match, a user or a text. Every series is created at zero on import (a series that
first appears at its final value is invisible to ``rate``: issue 40).

Counted around ``games.chat.services.send_message`` (``counted_sends``), so REST, GraphQL
and the play socket count alike.
"""

from __future__ import annotations

import functools

from prometheus_client import Counter

from games.chat.models import RoomKind
from infra.api_errors import ApiError
from infra.text_inputs import ControlCharacters

#: the codes a message may be refused with (docs/chat.md "Errors"); the moderation's own
#: (a time-out, a ban) are listed so their series exist from the start
REFUSAL_REASONS = (
    "chat_text_empty", "chat_text_too_long", "invalid_input", "invalid_request",
    "not_authenticated", "match_not_found", "chat_room_not_found", "chat_room_not_writable",
    "chat_links_not_allowed", "chat_rate_limited", "chat_timed_out", "chat_banned",
    "database_busy", "other",
)

SENT = Counter("chat_messages_sent_total", "Chat messages stored, by room kind.", ["room"])
REFUSED = Counter("chat_messages_refused_total",
                  "Chat messages refused before anything was stored, by reason (the error "
                  "code).", ["reason"])

for _room in RoomKind.values:
    SENT.labels(_room)
for _reason in REFUSAL_REASONS:
    REFUSED.labels(_reason)


def refused(code: str) -> None:
    REFUSED.labels(code if code in REFUSAL_REASONS else "other").inc()


def counted_sends(send):
    """``send`` (``send_message(match_id, kind, user, text)``) counting each message it
    stores by its room and each refusal by its code."""

    @functools.wraps(send)
    def counting(*args, **kwargs):
        try:
            row = send(*args, **kwargs)
        except (ApiError, ControlCharacters) as exc:  # the latter: text with control characters
            refused(str(exc.code))
            raise
        SENT.labels(row["room"]).inc()
        return row

    return counting
