"""System checks of the environment's settings, so that a bad value stops a process at its
start with a message naming the variable, instead of starting and failing later (issue 40).

``manage.py check`` runs them, and so does every process's start: ``migrate`` (Django),
scripts/serve_web.sh (``manage.py check`` before uvicorn) and the Celery worker and beat
(config/start_checks.py, on ``worker_init`` / ``beat_init``). An Error stops the process;
a Warning is printed and the process starts (docs/operations.md "Configuration").

- config.E002: a ``THROTTLE_*`` rate that is not ``N/period``: the service started and then
  every request the limit counts answered 500.
- config.E003: ``WEB_THREADS`` above ``DB_POOL_MAX_SIZE``: a thread holds a pooled
  connection while it serves, so the extra threads waited for one (``DB_POOL_TIMEOUT``).
- config.E004: ``FORWARDED_ALLOW_IPS`` with ``*`` and DEBUG off: uvicorn then believes the
  ``X-Forwarded-For`` of anyone who connects, so a client picks the address every
  per-address limit counts.
- config.E005: ``WEBHOOK_MAX_ATTEMPTS`` outside 1..``WEBHOOK_MAX_ATTEMPTS_CAP`` (40): the deliver
  task's Celery retries (50) also cover database outages, so more attempts would end in
  Celery's own give-up with the delivery left pending instead of failed and its endpoint
  disabled.
- config.E006: ``WEBHOOK_BATCH_SIZE`` outside 1..1000 or ``WEBHOOK_BATCH_THREADS`` outside
  1..32: a batch of none drains nothing (events pile up in Redis), and a huge one holds
  the drain's lock and its memory for long; or ``WEBHOOK_OVERDUE_MARGIN_SECONDS`` not
  above ``CELERY_VISIBILITY_TIMEOUT`` (the sweep would double held tasks).
- config.W001: DEBUG off with a database password from this repository (``game``,
  ``game_owner``: scripts/db_roles.sql, the compose file's old defaults).
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks

#: the passwords this repository ships for its roles (scripts/services.sh, db_roles.sql)
KNOWN_DEFAULT_PASSWORDS = frozenset({"game", "game_owner", "postgres", "password"})
_PERIODS = "smhd"


def rate_problem(rate) -> str | None:
    """Why ``rate`` is not a rate infra/throttles.parse_rate reads, or None."""
    if rate is None:
        return None  # the scope is switched off
    count, slash, period = str(rate).partition("/")
    if not slash or not count.strip().isdigit() or int(count) <= 0:
        return "the count before '/' must be a whole number above 0"
    if not period.strip() or period.strip()[0] not in _PERIODS:
        return "the period after '/' must start with s, m, h or d (sec, min, hour, day)"
    return None


@checks.register()
def throttle_rates_parse(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    rates = dict(settings.REST_FRAMEWORK.get("DEFAULT_THROTTLE_RATES", {}))
    rates.update({f"app tier {name}": rate for name, rate in
                  getattr(settings, "APP_RATE_TIERS", {}).items()})
    errors = []
    for scope, rate in rates.items():
        problem = rate_problem(rate)
        if problem:
            variable = ("THROTTLE_APP_TIERS" if scope.startswith("app tier ")
                        else f"THROTTLE_{scope.upper()}")
            errors.append(checks.Error(
                f"{variable}: {rate!r} is not a rate ({problem}).",
                hint='Write it as "N/period", e.g. "120/min" (docs/operations.md '
                '"Configuration").',
                id="config.E002"))
    return errors


@checks.register()
def web_threads_fit_the_pool(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    pool = settings.DATABASES["default"].get("OPTIONS", {}).get("pool")
    if not isinstance(pool, dict) or settings.WEB_THREADS <= pool.get("max_size", 0):
        return []
    return [checks.Error(
        f"WEB_THREADS={settings.WEB_THREADS} is above DB_POOL_MAX_SIZE={pool['max_size']}: "
        "each thread holds a pooled connection while it serves, so the extra threads would "
        "wait for one.",
        hint="Lower WEB_THREADS or raise DB_POOL_MAX_SIZE (and PostgreSQL's "
        "max_connections: docs/operations.md \"Processes\").",
        id="config.E003")]


@checks.register()
def proxies_trusted_by_address(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    trusted = getattr(settings, "FORWARDED_ALLOW_IPS", [])
    if settings.DEBUG or "*" not in trusted:
        return []
    return [checks.Error(
        'FORWARDED_ALLOW_IPS contains "*" while DEBUG is off: every client could set the '
        "address the rate limits count (X-Forwarded-For).",
        hint="List the proxy's own addresses or subnet, e.g. FORWARDED_ALLOW_IPS=172.30.0.2 "
        '(docs/operations.md "docker compose").',
        id="config.E004")]


#: the most attempts a webhook delivery may be given (games/webhooks/tasks.py ``deliver``:
#: 50 Celery retries, ten of them kept for database outages)
WEBHOOK_MAX_ATTEMPTS_CAP = 40


@checks.register()
def webhook_attempts_fit_the_retries(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    attempts = getattr(settings, "WEBHOOK_MAX_ATTEMPTS", 0)
    if 1 <= attempts <= WEBHOOK_MAX_ATTEMPTS_CAP:
        return []
    return [checks.Error(
        f"WEBHOOK_MAX_ATTEMPTS={attempts} is outside 1..{WEBHOOK_MAX_ATTEMPTS_CAP}: the "
        "deliver task's own retries would run out first and leave the delivery pending.",
        hint=f"Set WEBHOOK_MAX_ATTEMPTS between 1 and {WEBHOOK_MAX_ATTEMPTS_CAP} "
        '(docs/webhooks.md "Retries, disabling, the log").',
        id="config.E005")]


#: the bounds of a webhook drain's batch and of its sending threads (games/webhooks/batches.py)
WEBHOOK_BATCH_SIZE_RANGE = (1, 1000)
WEBHOOK_BATCH_THREADS_RANGE = (1, 32)


@checks.register()
def webhook_batches_fit(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    errors = []
    for name, (low, high) in (("WEBHOOK_BATCH_SIZE", WEBHOOK_BATCH_SIZE_RANGE),
                              ("WEBHOOK_BATCH_THREADS", WEBHOOK_BATCH_THREADS_RANGE)):
        value = getattr(settings, name, low)
        if not low <= value <= high:
            errors.append(checks.Error(
                f"{name}={value} is outside {low}..{high}: no batch would drain, or one "
                "would hold the drain's lock and memory too long.",
                hint=f"Set {name} between {low} and {high} (docs/webhooks.md "
                '"How events travel").',
                id="config.E006"))
    margin = getattr(settings, "WEBHOOK_OVERDUE_MARGIN_SECONDS", 0)
    visibility = getattr(settings, "CELERY_VISIBILITY_TIMEOUT", 0)
    if margin <= visibility:
        errors.append(checks.Error(
            f"WEBHOOK_OVERDUE_MARGIN_SECONDS={margin} is not above "
            f"CELERY_VISIBILITY_TIMEOUT={visibility}: the overdue sweep would send again "
            "deliveries whose task a busy or dead worker still holds.",
            hint="Keep the margin above the broker's visibility timeout (docs/webhooks.md).",
            id="config.E006"))
    return errors


@checks.register()
def database_passwords_are_not_defaults(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    if settings.DEBUG:
        return []
    password = settings.DATABASES["default"].get("PASSWORD", "")
    if password not in KNOWN_DEFAULT_PASSWORDS:
        return []
    return [checks.Warning(
        f"DEBUG is off but the database role {settings.DATABASES['default'].get('USER')!r} "
        "uses a password this repository publishes: anyone who reaches PostgreSQL can "
        "sign in as it.",
        hint="Give the roles their own passwords (ALTER ROLE ... PASSWORD) and put them in "
        "DATABASE_URL / POSTGRES_PASSWORD / POSTGRES_OWNER_PASSWORD.",
        id="config.W001")]
