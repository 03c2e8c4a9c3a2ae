"""The mails' metric families (Prometheus; multiprocess as infra/observability/metrics.py
explains). Labels are bounded: kinds and outcomes only, never a user or an address. Every
labelled series is created at zero on import (issue 40)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

#: what a mail is about: the notification event types, the confirmation and the digest
KINDS = ("your_turn", "invitation", "match_started", "match_finished", "reminder",
         "chat_message", "confirmation", "digest", "test")
#: sent (the mail server took it), failed (it refused or could not be reached: retried),
#: skipped (not needed: the player looked, the turn passed, a duplicate), muted (the
#: player turned it off), unverified (no confirmed address), digest (kept for the digest)
OUTCOMES = ("sent", "failed", "skipped", "muted", "unverified", "digest")
#: handing one mail to the mail server: milliseconds nearby, up to EMAIL_TIMEOUT
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

MAILS = Counter("mail_messages_total", "Player mails by kind and outcome.", ["kind", "outcome"])
SEND_SECONDS = Histogram("mail_send_seconds",
                         "Time to hand one mail to the mail server (SMTP or the backend).",
                         buckets=LATENCY_BUCKETS)
#: from the event (its task's arrival) to the mail handed over, the your-turn wait included
EVENT_TO_SENT_SECONDS = Histogram(
    "mail_event_to_sent_seconds", "Time from a notification event to its mail sent.",
    ["kind"], buckets=(0.1, 0.5, 1, 5, 30, 60, 300, 900, 3600, 86400))

for _kind in KINDS:
    EVENT_TO_SENT_SECONDS.labels(_kind)
    for _outcome in OUTCOMES:
        MAILS.labels(_kind, _outcome)


def counted(kind: str, outcome: str) -> None:
    MAILS.labels(kind, outcome).inc()
