"""The probes a load balancer, the container image and compose ask (docs/operations.md
"Probes"), answered once the request is counted and has its id, before any other
middleware:

- ``GET /health/live``: the process is up and serves requests. No dependency is asked, so
  an outage of PostgreSQL or Redis never makes an orchestrator restart healthy processes.
- ``GET /health/ready`` (and its older name ``/api/v1/health``): may this instance take
  traffic? 503 only when the database does not answer within ``READY_DATABASE_TIMEOUT_S``;
  Redis is reported, and Redis down is ``"degraded"`` with a 200, because the API serves
  through a Redis outage (docs/operations.md "Redis outage"): a balancer that dropped every
  instance for it would turn a degraded service into none.

Why before the other middleware: Django's host validation (``ALLOWED_HOSTS``) would answer
a probe 400 whenever the probe's Host (``127.0.0.1``, the container's address) is not
listed, and the HTTPS redirect would send it elsewhere; a probe's answer depends on neither.

The database check opens its own session with a short ``connect_timeout`` and
``statement_timeout`` instead of borrowing from the pool: with a wrong password the pool
waits ``DB_POOL_TIMEOUT`` (10 s) for a connection it can never open, past any probe's
timeout (the image's is 3 s). Redis is asked meanwhile, in a thread, so the answer comes
within about ``READY_DATABASE_TIMEOUT_S`` whatever fails."""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor

import psycopg
import redis
from django.conf import settings
from django.http import HttpResponse

logger = logging.getLogger(__name__)

LIVE_PATHS = frozenset({"/health/live", "/health/live/"})
READY_PATHS = frozenset({"/health/ready", "/health/ready/", "/api/v1/health",
                         "/api/v1/health/"})
#: libpq's connect_timeout counts whole seconds, at least 2
READY_DATABASE_TIMEOUT_S = 2
READY_STATEMENT_TIMEOUT_MS = 1000
READY_REDIS_TIMEOUT_S = 1.0

_redis_checks = ThreadPoolExecutor(max_workers=2, thread_name_prefix="ready-redis")


def database_answers() -> bool:
    database = settings.DATABASES["default"]
    try:
        with psycopg.connect(
            host=database["HOST"] or None, port=database["PORT"] or None,
            dbname=database["NAME"], user=database["USER"], password=database["PASSWORD"],
            connect_timeout=READY_DATABASE_TIMEOUT_S, application_name="ready-probe",
            options=f"-c statement_timeout={READY_STATEMENT_TIMEOUT_MS}",
        ) as session:
            return session.execute("SELECT 1").fetchone() == (1,)
    except Exception:  # any driver error means "down"; the reason goes to the log only
        logger.warning("readiness: database check failed", exc_info=True)
        return False


def redis_answers() -> bool:
    client = redis.Redis.from_url(settings.REDIS_URL,
                                  socket_connect_timeout=READY_REDIS_TIMEOUT_S,
                                  socket_timeout=READY_REDIS_TIMEOUT_S)
    try:
        return bool(client.ping())
    except Exception:
        logger.warning("readiness: redis check failed", exc_info=True)
        return False
    finally:
        client.close()


def readiness() -> tuple[int, dict]:
    """(HTTP status, body) of the readiness probe."""
    redis_check = _redis_checks.submit(redis_answers)
    database_up = database_answers()
    redis_up = redis_check.result()
    if not database_up:
        status = "unavailable"
    elif not redis_up:
        status = "degraded"
    else:
        status = "ok"
    body = {"status": status, "database": "ok" if database_up else "down",
            "redis": "ok" if redis_up else "down"}
    return (503 if status == "unavailable" else 200), body


def _json(status: int, body: dict) -> HttpResponse:
    response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
    response["Cache-Control"] = "no-store"
    return response


class ProbesMiddleware:
    """Answers the probes' paths (GET or HEAD, no query string) itself; everything else
    goes on. A probe sends no query; a request with one (``?lang=``) is an API request
    like any other, validated as such (/api/v1/health: infra/health.py)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method in ("GET", "HEAD") and not request.META.get("QUERY_STRING"):
            if request.path in LIVE_PATHS:
                return _json(200, {"status": "ok"})
            if request.path in READY_PATHS:
                return _json(*readiness())
        return self.get_response(request)
