"""config/http_split.py: plain HTTP goes through Django's WSGI handler in a thread, the
async views and static files through its ASGI handler (issue 14)."""

from __future__ import annotations

import asyncio
import inspect
import re

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


def _streams_asynchronously(view) -> bool:
    return getattr(getattr(view, "view_class", view), "streams_asynchronously", False)


def _sample_path(route: str) -> str:
    """A path the route matches: each ``<converter:name>`` filled with a sample value."""
    return re.sub(r"<(?:\w+:)?\w+>", "sample", route)


def _served_by_asgi(path: str) -> bool:
    return SplitHttp(sync_app=None, async_app=None,
                     async_paths=settings.ASYNC_HTTP_PATHS).serves_async(path)


def test_every_async_view_and_async_stream_is_served_by_the_asgi_handler():
    routes = [(route, view) for route, view in _routes(get_resolver().url_patterns)]
    async_routes = [route for route, view in routes if _is_async(view)]
    streaming_routes = [route for route, view in routes if _streams_asynchronously(view)]
    assert async_routes, "the feed stream is an async view: this test must see it"
    assert streaming_routes, "the records export streams asynchronously: this test must see it"
    for route in async_routes + streaming_routes:
        # a stream served through the WSGI thread pool would hold a thread while it lasts,
        # and an async iterator would be collected whole before the first byte is sent
        assert _served_by_asgi(_sample_path(route)), route
    # and the plain views stay on the WSGI thread pool
    for route, view in routes:
        if not (_is_async(view) or _streams_asynchronously(view)) and route.startswith(
                "/api/"):
            assert not _served_by_asgi(_sample_path(route)), route


def test_static_files_are_served_by_the_asgi_handler():
    assert _served_by_asgi(f"/{settings.STATIC_URL.lstrip('/')}admin/css/base.css")


def _recording_app(name: str, seen: list):
    async def app(scope, receive, send):
        seen.append((name, scope["path"]))
    return app


def test_split_sends_each_path_to_its_handler():
    seen: list = []
    split = SplitHttp(sync_app=_recording_app("wsgi", seen),
                      async_app=_recording_app("asgi", seen),
                      async_paths=(r"/api/v1/stream", r"/api/v1/users/[^/]+/records",
                                   r"/static/"))
    for path in ("/api/v1/matches/3/moves/", "/graphql/", "/api/v1/stream/",
                 "/static/admin/css/base.css", "/admin/", "/api/v1/users/ann/records/",
                 "/api/v1/users/ann/", "/api/v1/records/verify/"):
        asyncio.run(split({"type": "http", "path": path}, None, None))
    assert seen == [("wsgi", "/api/v1/matches/3/moves/"), ("wsgi", "/graphql/"),
                    ("asgi", "/api/v1/stream/"), ("asgi", "/static/admin/css/base.css"),
                    ("wsgi", "/admin/"), ("asgi", "/api/v1/users/ann/records/"),
                    ("wsgi", "/api/v1/users/ann/"), ("wsgi", "/api/v1/records/verify/")]
