"""The chat moderation's metric families (Prometheus; multiprocess as
infra/observability/metrics.py explains). Labels are bounded: report reasons, action
kinds and refusal codes, never a user or a match. Every labelled series is created at
zero on import (a series that first appears at its final value is invisible to ``rate``)."""

from __future__ import annotations

from functools import wraps

from prometheus_client import Counter

from games.chat.moderation.models import ActionKind, ReportReason
from games.matches.errors import GameServiceError
from infra.text_inputs import ControlCharacters

#: every code games.chat.services.send_message refuses with (docs/chat.md "Errors");
#: another code is counted as "other" so a new one cannot grow the label set unseen
SEND_REFUSAL_CODES = ("chat_text_empty", "chat_text_too_long", "invalid_input", "invalid_request",
                      "chat_room_not_found", "match_not_found", "chat_room_not_writable",
                      "chat_rate_limited", "chat_timed_out", "chat_banned", "other")

REPORTS = Counter("chat_reports_total", "Chat messages reported (new reports), by reason.",
                  ["reason"])
ACTIONS = Counter("chat_moderator_actions_total", "Moderators' chat actions, by kind.",
                  ["kind"])
SENDS_REFUSED = Counter("chat_sends_refused_total",
                        "Chat messages refused before they were stored, by error code.",
                        ["reason"])

for _reason in ReportReason.values:
    REPORTS.labels(_reason)
for _kind in ActionKind.values:
    ACTIONS.labels(_kind)
for _code in SEND_REFUSAL_CODES:
    SENDS_REFUSED.labels(_code)


def count_refused_send(code: str) -> None:
    SENDS_REFUSED.labels(code if code in SEND_REFUSAL_CODES else "other").inc()


def counting_refusals(send):
    """Wrap the one send function (games.chat.services.send_message) so that every
    refusal it raises, on whichever transport, is counted by its code."""
    @wraps(send)
    def counted(*args, **kwargs):
        try:
            return send(*args, **kwargs)
        except (GameServiceError, ControlCharacters) as refusal:
            count_refused_send(str(refusal.code))
            raise

    return counted
