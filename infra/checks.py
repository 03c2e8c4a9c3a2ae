"""System checks of this project's configuration (``manage.py check``, which ``migrate``
and ``make run`` run too), registered by ``games.apps.GamesConfig.ready``.

The rate limits (infra/throttles.py) count in Redis through django-redis's
``get_redis_connection``, which only django-redis's cache backend answers. With any other
``CACHES["default"]`` backend
every throttled request would fail with a 500, so the configuration is refused here, at
start-up, naming the backend to use instead.
"""

from __future__ import annotations

from django.conf import settings
from django.core import checks
from django.utils.module_loading import import_string
from django_redis.cache import RedisCache

OUR_CACHE = "django_redis.cache.RedisCache"


@checks.register(checks.Tags.caches)
def throttles_have_their_cache(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    backend = settings.CACHES.get("default", {}).get("BACKEND", "")
    try:
        ours = issubclass(import_string(backend), RedisCache)
    except ImportError:
        ours = False  # Django's own cache check names the import error
    if ours:
        return []
    return [checks.Error(
        f'CACHES["default"] uses {backend!r}, but the rate limits (infra/throttles.py) '
        "count through django_redis.get_redis_connection(), which only django-redis's "
        "cache backend answers.",
        hint=f'Set CACHES["default"]["BACKEND"] to "{OUR_CACHE}" (config/settings.py); '
        "CACHE_REDIS_URL chooses its Redis server.",
        id="config.E001",
    )]
