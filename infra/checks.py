"""System checks of this project's configuration (``manage.py check``, which ``migrate``
and ``make run`` run too), registered by ``games.apps.GamesConfig.ready``.

The rate limits (infra/throttles.py) count in Redis through ``redis_client()``, which only
our cache backend has (infra/redis_cache.py). With any other ``CACHES["default"]`` backend
every throttled request would fail with a 500, so the configuration is refused here, at
start-up, naming the backend to use instead.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.utils.module_loading import import_string

from infra.redis_cache import SharedClientRedisCache

OUR_CACHE = "infra.redis_cache.SharedClientRedisCache"


@checks.register(checks.Tags.caches)
def throttles_have_their_cache(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    try:
        ours = issubclass(import_string(backend), SharedClientRedisCache)
    except ImportError:
        ours = False  # Django's own cache check names the import error
    if ours:
        return []
    return [checks.Error(
        f'CACHES["default"] uses {backend!r}, but the rate limits (infra/throttles.py) '
        "count through redis_client(), which only our Redis cache backend has.",
        hint=f'Set CACHES["default"]["BACKEND"] to "{OUR_CACHE}" (config/settings.py); '
        "CACHE_REDIS_URL chooses its Redis server.",
        id="config.E001",
    )]
