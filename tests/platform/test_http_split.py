"""config/http_split.py: plain HTTP goes through Django's WSGI handler in a thread, the
async views and static files through its ASGI handler (issue 14)."""

from __future__ import annotations

import asyncio
import inspect

from django.conf import settings
from django.urls import URLPattern, URLResolver, get_resolver

from config.http_split import SplitHttp


def _routes(patterns, prefix: str = "/"):
    for pattern in patterns:
        route = prefix + str(pattern.pattern).lstrip("^")
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.callback


def _is_async(view) -> bool:
    view = getattr(view, "view_class", None) and view.view_class.as_view() or view
    return inspect.iscoroutinefunction(view) or getattr(view, "view_is_async", False)


def test_every_async_view_is_served_by_the_asgi_handler():
    async_routes = [route for route, view in _routes(get_resolver().url_patterns)
                    if _is_async(view)]
    assert async_routes, "the feed stream is an async view: this test must see it"
    for route in async_routes:
        # a stream served through the WSGI thread pool would hold a thread while it lasts
        assert route.startswith(settings.ASYNC_HTTP_PATHS), route


def test_static_files_are_served_by_the_asgi_handler():
    assert f"/{settings.STATIC_URL.lstrip('/')}admin/css/base.css".startswith(
        settings.ASYNC_HTTP_PATHS)


def _recording_app(name: str, seen: list):
    async def app(scope, receive, send):
        seen.append((name, scope["path"]))
    return app


def test_split_sends_each_path_to_its_handler():
    seen: list = []
    split = SplitHttp(sync_app=_recording_app("wsgi", seen),
                      async_app=_recording_app("asgi", seen),
                      async_prefixes=("/api/v1/stream", "/static/"))
    for path in ("/api/v1/matches/3/moves/", "/graphql/", "/api/v1/stream/",
                 "/static/admin/css/base.css", "/admin/"):
        asyncio.run(split({"type": "http", "path": path}, None, None))
    assert seen == [("wsgi", "/api/v1/matches/3/moves/"), ("wsgi", "/graphql/"),
                    ("asgi", "/api/v1/stream/"), ("asgi", "/static/admin/css/base.css"),
                    ("wsgi", "/admin/")]
