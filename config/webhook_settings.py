"""Settings of the apps' webhooks (games/webhooks/, docs/webhooks.md), imported at the end
of config/settings.py."""

from config.env import env_bool, env_int, env_list, env_str


def env_float(name: str, default: float) -> float:
    return float(env_str(name, str(default)))


#: plain-http endpoint URLs: development (DEBUG) and the test suite; production: https only
WEBHOOK_HTTP_URLS = env_bool("WEBHOOK_HTTP_URLS", env_bool("DEBUG", False))
#: networks (CIDR or single addresses) let through the forbidden-address check anyway:
#: the tests' local receiver on 127.0.0.1, a development machine. Empty in production.
WEBHOOK_ALLOWED_ADDRESSES = env_list("WEBHOOK_ALLOWED_ADDRESSES", "")
#: one attempt's connect-and-answer time
WEBHOOK_TIMEOUT_SECONDS = env_float("WEBHOOK_TIMEOUT_SECONDS", 5.0)
#: attempts of one delivery before it fails and its endpoint is disabled (at most 40, or the
#: start check config.E005 refuses it: the deliver task's Celery retries, 50, also cover
#: database outages: games/webhooks/tasks.py)
WEBHOOK_MAX_ATTEMPTS = env_int("WEBHOOK_MAX_ATTEMPTS", 10)
#: the first wait after a failed attempt; each next one doubles, up to the maximum, which
#: stays below CELERY_VISIBILITY_TIMEOUT (a retry waits unacked in the worker): with the
#: defaults 2, 4, 8, 16, 20, 20, 20, 20, 20 s: 130 s of waits, plus each attempt's time
WEBHOOK_BACKOFF_BASE_SECONDS = env_float("WEBHOOK_BACKOFF_BASE_SECONDS", 2.0)
WEBHOOK_BACKOFF_MAX_SECONDS = env_float("WEBHOOK_BACKOFF_MAX_SECONDS", 20.0)
#: how long a process trusts its answer to "is any endpoint active?" (games/webhooks/events.py)
WEBHOOK_ENDPOINTS_CHECK_SECONDS = env_float("WEBHOOK_ENDPOINTS_CHECK_SECONDS", 5.0)
#: events a drain task takes from the Redis list at once (games/webhooks/batches.py): one
#: read of the subscriptions and one insert per batch; 1..1000 (config.E006)
WEBHOOK_BATCH_SIZE = env_int("WEBHOOK_BATCH_SIZE", 200)
#: endpoints a batch's first attempts go to at the same time (one slow receiver holds up
#: no other); 1..32 (config.E006)
WEBHOOK_BATCH_THREADS = env_int("WEBHOOK_BATCH_THREADS", 4)
#: how long the drain task sent by the push that found the list empty waits before it
#: runs: the events of that while go in its batch (a task per event otherwise, at a
#: steady rate); what it adds to a delivery's latency
WEBHOOK_BATCH_WAIT_SECONDS = env_float("WEBHOOK_BATCH_WAIT_SECONDS", 0.25)
#: how much nicer than the worker's the drain's thread runs (infra/low_priority.py): on
#: cores shared with the web processes, a move's ack comes before a delivery; 0 = the
#: worker's own priority
WEBHOOK_DRAIN_NICENESS = env_int("WEBHOOK_DRAIN_NICENESS", 10)
#: how long one drain holds its Redis lock without renewing it (renewed after each batch);
#: a drain that died frees it after this
WEBHOOK_DRAIN_LOCK_SECONDS = env_float("WEBHOOK_DRAIN_LOCK_SECONDS", 30.0)
#: beat's safety-net drain (one LLEN when nothing waits): events whose drain task a broker
#: outage lost wait at most this long
WEBHOOK_DRAIN_SWEEP_SECONDS = env_float("WEBHOOK_DRAIN_SWEEP_SECONDS", 5.0)
#: a pending delivery whose deliver task is this late lost its message (a broker outage):
#: the sweep sends it again (games/webhooks/overdue.py); above the visibility timeout, so
#: a task held by a busy or dead worker is not doubled in the usual case
WEBHOOK_OVERDUE_MARGIN_SECONDS = env_float("WEBHOOK_OVERDUE_MARGIN_SECONDS", 60.0)
#: how often beat runs that sweep
WEBHOOK_OVERDUE_SWEEP_SECONDS = env_float("WEBHOOK_OVERDUE_SWEEP_SECONDS", 30.0)
