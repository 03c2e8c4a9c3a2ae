"""The browser origins of every active app: CORS and the websockets' origin check accept
them at once, with no restart (docs/apps.md "Origins").

``CORS_ALLOWED_ORIGINS`` (the environment) stays for the service's own frontends;
django-cors-headers asks its ``check_request_enabled`` signal about any other origin, and
``registered(origin)`` answers from this process's copy of the apps' origins.

Keeping the copy true across processes: every change of an app (saved or deleted, from
the API, the admin or a shell) bumps a version number in the shared cache (Redis) once its
transaction commits and drops this process's copy at once. Another process compares its
copy's version with the cache's at most every ``APP_ORIGINS_RECHECK_SECONDS`` (1 s) and
reloads on a difference: an origin registered in one process is served by every process
within that second, at one cache read per second per process rather than one per request.
With the cache unreachable, a process keeps its copy and reloads it from the database
every recheck: a change still reaches it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.core.cache import cache
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_save

logger = logging.getLogger(__name__)

VERSION_KEY = "apps-oauth:origins-version"

_lock = threading.Lock()
_copy: frozenset[str] | None = None
_version: object = None
_checked_at = 0.0


def registered(origin: str) -> bool:
    """Whether an active app lists ``origin`` (scheme://host[:port], exactly)."""
    return origin in _origins()


def _origins() -> frozenset[str]:
    global _copy, _version, _checked_at
    now = time.monotonic()
    copy = _copy
    if copy is not None and now - _checked_at < settings.APP_ORIGINS_RECHECK_SECONDS:
        return copy
    with _lock:
        version = _shared_version()
        if _copy is None or version is None or version != _version:
            _copy, _version = _load(), version
        _checked_at = time.monotonic()
        return _copy


def _shared_version():
    try:
        version = cache.get(VERSION_KEY)
        if version is None:  # never bumped (or evicted): start counting
            cache.add(VERSION_KEY, 0, timeout=None)
            version = cache.get(VERSION_KEY)
        return version
    except Exception:  # noqa: BLE001 - no cache: reload from the database (None)
        logger.warning("app origins: cache unreachable, reading the database", exc_info=True)
        return None


def _load() -> frozenset[str]:
    """From the database; inside an event loop (a websocket handshake), in a thread of its
    own, as Django allows no query there: at most once a recheck per process."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return _query()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(_query_and_close).result()


def _query_and_close() -> frozenset[str]:
    try:
        return _query()
    finally:
        connection.close()


def _query() -> frozenset[str]:
    from oauth2_provider.models import get_application_model

    origins: set[str] = set()
    for text in get_application_model().objects.filter(active=True).values_list(
            "allowed_origins", flat=True):
        origins.update(text.split())
    return frozenset(origins)


def invalidate() -> None:
    """Drop this process's copy and tell the others (after the commit)."""
    global _copy
    _copy = None

    def bump():
        global _copy
        _copy = None
        try:
            cache.add(VERSION_KEY, 0, timeout=None)
            cache.incr(VERSION_KEY)
        except Exception:  # noqa: BLE001 - the others reload every recheck without a cache
            logger.warning("app origins: could not bump the version", exc_info=True)

    transaction.on_commit(bump, robust=True)


def _app_changed(sender, **kwargs) -> None:
    invalidate()


def cors_allows(sender, request, **kwargs) -> bool:
    """django-cors-headers' ``check_request_enabled``: an app's registered origin."""
    origin = request.headers.get("origin")
    return bool(origin) and registered(origin)


def connect() -> None:
    """Called once by AppsOAuthConfig.ready."""
    from corsheaders.signals import check_request_enabled
    from oauth2_provider.models import get_application_model

    app_model = get_application_model()
    post_save.connect(_app_changed, sender=app_model, dispatch_uid="apps-oauth-origins-saved")
    post_delete.connect(_app_changed, sender=app_model,
                        dispatch_uid="apps-oauth-origins-deleted")
    check_request_enabled.connect(cors_allows, dispatch_uid="apps-oauth-origins-cors")
