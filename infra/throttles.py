"""Rate limits for REST and GraphQL, counted in the shared Redis cache (infra/counters.py;
in each process's memory while Redis is unreachable).

Scopes (rates in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]``, set from the environment):

- ``anon_read``: reads by anonymous callers, per address;
- ``user_read``: reads by signed-in callers, per user;
- ``move``: writes (a move, creating, joining, leaving, starting, aborting a match), per
  user (per address when anonymous);
- ``auth``: register, log in, revoke a token (REST and GraphQL), per address: strict,
  against password guessing;
- ``socket_auth``: a play socket's ``hello`` (a token already issued, or none), per
  address: generous, as every socket behind one address reconnects at once after a
  restart; a refused token counts against ``auth`` too (games/play/operations.py);
- ``app``: every request made with a third-party app's token (OAuth or personal access
  token, its ``application_id``), all the app's users together, on top of its user's own
  limits: one app cannot take the service for itself. The app's ``rate_tier`` (set by
  staff in the admin) picks its rate from ``APP_RATE_TIERS`` (settings); without one, or
  an unknown one, the ``app`` rate applies.

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

from django.conf import settings
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from infra import counters
from infra.observability import metrics

ANON_READ, USER_READ, MOVE, AUTH = "anon_read", "user_read", "move", "auth"
SOCKET_AUTH = "socket_auth"
APP = "app"

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


_DEFAULT_RATE = object()


def hit(scope: str, ident: str, rate=_DEFAULT_RATE) -> float | None:
    """Count one request of ``ident`` in ``scope``; the seconds to wait if it is over the
    limit (the request is refused), None if it may go ahead. ``rate`` overrides the
    scope's (an app's tier). ``PendingHit`` sent and read at once."""
    return PendingHit(scope, ident, rate).wait()


#: callers this process found over a limit, until their window ends: (scope, ident) ->
#: the window's end (a caller over the limit is counted and refused before any lock:
#: games/play/operations.py)
_over_until: dict[tuple[str, str], float] = {}
#: past this many, the ended entries are dropped
_OVER_KEPT = 10_000


def known_over(scope: str, ident: str) -> bool:
    """Whether this process found ``ident`` over ``scope``'s limit in the window still
    running (an answer of this process's own: another process may know better)."""
    ends = _over_until.get((scope, ident))
    if ends is None:
        return False
    if ends <= time.time():
        _over_until.pop((scope, ident), None)
        return False
    return True


def _remember_over(scope: str, ident: str, ends: float) -> None:
    if len(_over_until) >= _OVER_KEPT:
        now = time.time()
        for key in [key for key, until in _over_until.items() if until <= now]:
            _over_until.pop(key, None)
        if len(_over_until) >= _OVER_KEPT:
            # all still running (a flood from many callers): forget them rather than scan
            # the whole dict again at every refusal; each is refused after the lock once
            # more, and remembered again
            _over_until.clear()
    _over_until[(scope, ident)] = ends


class PendingHit:
    """``hit`` in two halves (infra/counters.py ``PendingAdd``): made, the count is on its
    way to Redis; ``wait()`` reads it, the same answer as ``hit`` (asked once, kept), and
    ``check()`` raises ``Throttled`` as ``check`` does. The limit means what it means for
    ``hit``: one shared count per scope, caller and window, every attempt counted, the
    window the one of the moment the count was sent."""

    def __init__(self, scope: str, ident: str, rate=_DEFAULT_RATE) -> None:
        self._scope, self._ident = scope, ident
        self._wait: float | None = None
        self._pending = None
        if rate is _DEFAULT_RATE:
            rate = api_settings.DEFAULT_THROTTLE_RATES.get(scope)
        if rate is None:
            return
        self._limit, duration = parse_rate(rate)
        now = time.time()
        window = int(now // duration)
        self._window_ends = (window + 1) * duration
        self._pending = counters.PendingAdd(f"throttle:{scope}:{ident}:{window}",
                                            duration + 1)

    def wait(self) -> float | None:
        pending, self._pending = self._pending, None
        if pending is not None and pending.count() > self._limit:
            metrics.throttled(self._scope)
            self._wait = max(0.0, self._window_ends - time.time())
            _remember_over(self._scope, self._ident, self._window_ends)
        return self._wait

    def check(self) -> None:
        from infra.api_errors import Throttled  # as in ``check``

        wait = self.wait()
        if wait is not None:
            raise Throttled(retry_after_seconds(wait))


def app_rate(application) -> str | None:
    """The rate of an app: its tier's (``APP_RATE_TIERS``), else the ``app`` scope's."""
    tier = getattr(application, "rate_tier", None)  # the App model's field
    tiers = getattr(settings, "APP_RATE_TIERS", {})
    if tier and tier in tiers:
        return tiers[tier]
    return api_settings.DEFAULT_THROTTLE_RATES.get(APP)


def hit_app(auth) -> float | None:
    """Count one request against the app whose token ``auth`` is (nothing for a
    first-party token, a session or no credential); the seconds to wait if over."""
    app_id = getattr(auth, "application_id", None)
    if app_id is None:
        return None
    return hit(APP, f"app:{app_id}", app_rate(getattr(auth, "application", None)))


def longest(*waits: float | None) -> float | None:
    """The longest of the waits that refuse (None if none does)."""
    refusing = [wait for wait in waits if wait is not None]
    return max(refusing) if refusing else None


def retry_after_seconds(wait: float) -> int:
    return max(1, math.ceil(wait))


def check(scope: str, ident: str) -> None:
    """Count one request of ``ident`` in ``scope``; raise ``Throttled`` if it is over."""
    PendingHit(scope, ident).check()


def read_scope(user) -> str:
    return USER_READ if user is not None and user.is_authenticated else ANON_READ


class ApiRateThrottle(BaseThrottle):
    """REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"]: a view's ``throttle_scope`` if it names
    one (the auth views: ``auth``), else a read scope for safe methods and ``move`` for
    writes; and an app's token counts against its app too (``app``). A view opts out
    with ``throttle_classes = []`` (the health check)."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def allow_request(self, request, view) -> bool:
        scope = getattr(view, "throttle_scope", None)
        if scope is None:
            scope = read_scope(request.user) if request.method in SAFE_METHODS else MOVE
        # the caller's own limit and, for an app's token, the app's (both count)
        self._wait = longest(hit(scope, caller_ident(request.user, request.META)),
                             hit_app(request.auth))
        return self._wait is None

    def wait(self) -> float | None:
        return self._wait
