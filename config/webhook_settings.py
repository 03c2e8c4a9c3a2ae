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
