"""The notifications' metric families (Prometheus; multiprocess as
infra/observability/metrics.py explains). Labels are bounded: outcomes only, never a user
or a push service. Every labelled series is created at zero on import (issue 40)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

from games.webhooks.metrics import LATENCY_BUCKETS

#: one push: sent (2xx), gone (404/410: the subscription is removed), http_error (another
#: status), network (refused, timeout, TLS), refused (the push service's host now
#: resolves to a forbidden address)
PUSH_OUTCOMES = ("sent", "gone", "http_error", "network", "refused")

PUSHES = Counter("webpush_sends_total", "Web Push messages sent, by outcome.", ["outcome"])
PUSH_LATENCY = Histogram(
    "webpush_send_seconds",
    "Time of one Web Push request, from the connection to the push service's answer.",
    buckets=LATENCY_BUCKETS)
SUBSCRIPTIONS_REMOVED = Counter(
    "webpush_subscriptions_removed_total",
    "Push subscriptions removed because the push service answered 404 or 410.")
REMINDERS = Counter(
    "notification_reminders_total",
    "Reminders before a turn-based deadline, one per seat and deadline.")

for _outcome in PUSH_OUTCOMES:
    PUSHES.labels(_outcome)
