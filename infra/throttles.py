"""Rate limits for REST and GraphQL, counted in the shared Redis cache (infra/counters.py;
in each process's memory while Redis is unreachable).

Scopes (rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, set from the environment):

- ``anon_read``: reads by anonymous callers, per address;
- ``user_read``: reads by signed-in callers, per user;
- ``move``: writes (a move, creating, joining, leaving, starting, aborting a match), per
  user (per address when anonymous);
- ``auth``: register, log in, revoke a token (REST and GraphQL), per address: strict,
  against password guessing.

Each limit is a fixed window (``n/min`` counts the requests of each clock minute) kept as
one Redis counter per scope, caller and window, incremented atomically (``INCR``, one
round trip with its expiry), so every
web process sees the same count and concurrent requests are never lost, unlike DRF's
read-modify-write history. While Redis cannot be reached each process counts alone, in a
bounded store, and returns to Redis by itself (infra/counters.py says what that allows).
A fixed window lets a burst of up to twice the rate straddle a
window boundary: fine against floods and guessing, and O(1) per request. A refusal is
429 ``throttled`` with ``details.retry_after_seconds`` and a ``Retry-After`` header (the
seconds until the window ends). A rate of ``None`` switches a scope off.

The caller's address is ``REMOTE_ADDR``; ``X-Forwarded-For`` is believed only through
``NUM_PROXIES`` trusted proxies (REST_FRAMEWORK setting), so a client cannot dodge the
limit by inventing the header. A websocket (GraphQL mutations over the socket) has no
request META: ``scope_meta`` reads the same two values from its ASGI scope, so a socket's
caller is counted exactly as an HTTP request's.
"""

from __future__ import annotations

import math
import time

from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from infra import counters
from infra.observability import metrics

ANON_READ, USER_READ, MOVE, AUTH = "anon_read", "user_read", "move", "auth"

_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"120/min"`` -> (120, 60): DRF's rate syntax (the period's first letter counts)."""
    count, period = rate.split("/")
    return int(count), _SECONDS[period.strip()[0]]


def caller_ident(user, request_meta: dict) -> str:
    """Whom a limit counts: the user when signed in, else the address (see module doc)."""
    if user is not None and getattr(user, "is_authenticated", False):
        return f"user:{user.pk}"
    return f"addr:{client_address(request_meta)}"


def client_address(request_meta: dict) -> str:
    remote = request_meta.get("REMOTE_ADDR") or "unknown"
    proxies = api_settings.NUM_PROXIES or 0
    forwarded = request_meta.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        hops = [hop.strip() for hop in forwarded.split(",")]
        return hops[-min(proxies, len(hops))]
    return remote


def scope_meta(scope: dict) -> dict:
    """The ``REMOTE_ADDR`` and ``HTTP_X_FORWARDED_FOR`` an HTTP request from this ASGI
    ``scope`` would carry, built as Django's ASGI handler builds them (repeated headers
    joined by commas), for ``client_address``."""
    meta = {}
    client = scope.get("client")
    if client:
        meta["REMOTE_ADDR"] = client[0]
    forwarded = [value.decode("latin1") for name, value in scope.get("headers", [])
                 if name.lower() == b"x-forwarded-for"]
    if forwarded:
        meta["HTTP_X_FORWARDED_FOR"] = ",".join(forwarded)
    return meta


def hit(scope: str, ident: str) -> float | None:
    """Count one request of ``ident`` in ``scope``; the seconds to wait if it is over the
    limit (the request is refused), None if it may go ahead."""
    rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
    if rate is None:
        return None
    limit, duration = parse_rate(rate)
    now = time.time()
    window = int(now // duration)
    count = counters.add(f"throttle:{scope}:{ident}:{window}", duration + 1)
    if count > limit:
        metrics.throttled(scope)
        return (window + 1) * duration - now
    return None


def retry_after_seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def check(scope: str, ident: str) -> None:
    """Count one request of ``ident`` in ``scope``; raise ``Throttled`` if it is over."""
    # imported here: the error module loads DRF's settings, which load this module
    from infra.api_errors import Throttled

    wait = hit(scope, ident)
    if wait is not None:
        raise Throttled(retry_after_seconds(wait))


def read_scope(user) -> str:
    return USER_READ if user is not None and user.is_authenticated else ANON_READ


class ApiRateThrottle(BaseThrottle):
    """REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]: a view's ``throttle_scope`` if it names
    one (the auth views: ``auth``), else a read scope for safe methods and ``move`` for
    writes. A view opts out with ``throttle_classes = []`` (the health check)."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None:
            scope = read_scope(request.user) if request.method in SAFE_METHODS else MOVE
        self._wait = hit(scope, caller_ident(request.user, request.META))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait
