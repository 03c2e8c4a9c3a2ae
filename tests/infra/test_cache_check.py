"""The rate limits need our cache backend (infra/checks.py): ``manage.py check`` refuses
any other ``CACHES["default"]`` backend with a message naming the one to use, and passes
with the project's own."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import SystemCheckError


def test_the_project_s_cache_passes_the_check(capsys):
    call_command("check")
    assert "config.E001" not in capsys.readouterr().out


@pytest.mark.parametrize("backend", [
    "django.core.cache.backends.redis.RedisCache",  # Django's own: not django-redis
    "django.core.cache.backends.locmem.LocMemCache",
])
def test_another_cache_backend_is_refused_with_a_clear_message(settings, backend):
    settings.CACHES = {"default": {"BACKEND": backend}}
    with pytest.raises(SystemCheckError) as refused:
        call_command("check")
    message = str(refused.value)
    assert "config.E001" in message and backend in message
    assert "django_redis.cache.RedisCache" in message  # what to use instead
