"""The webhooks' metric families (Prometheus; multiprocess as infra/observability/metrics.py
explains). Labels are bounded: outcomes only, never an app, an endpoint or a user.
Every labelled series is created at zero on import (a series that first appears at its
final value is invisible to ``rate``: issue 40)."""

from __future__ import annotations

from prometheus_client import Counter, Histogram

#: an attempt: milliseconds to a nearby receiver, up to the timeout (5 s by default)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: the end of a delivery: delivered (a 2xx), failed (attempts exhausted: the endpoint is
#: disabled), dropped (its endpoint was disabled or removed before it went)
DELIVERY_OUTCOMES = ("delivered", "failed", "dropped")
#: one attempt: success (2xx), http_error (another status), network (refused, timeout,
#: TLS), refused (the host now resolves to a forbidden address)
ATTEMPT_OUTCOMES = ("success", "http_error", "network", "refused")

DELIVERIES = Counter(
    "webhook_deliveries_total", "Webhook deliveries ended, by outcome.", ["outcome"])
ATTEMPTS = Counter(
    "webhook_attempts_total", "Webhook delivery attempts (first tries and retries), by outcome.",
    ["outcome"])
RETRIES = Counter(
    "webhook_retries_total", "Webhook attempts scheduled again after a failed one.")
LATENCY = Histogram(
    "webhook_attempt_seconds",
    "Time of one webhook attempt, from the connection to the receiver's answer.",
    buckets=LATENCY_BUCKETS)
ENDPOINTS_DISABLED = Counter(
    "webhook_endpoints_disabled_total",
    "Webhook endpoints disabled because their deliveries kept failing.")

for _outcome in DELIVERY_OUTCOMES:
    DELIVERIES.labels(_outcome)
for _outcome in ATTEMPT_OUTCOMES:
    ATTEMPTS.labels(_outcome)
