"""Plain HTTP requests through Django's WSGI handler, in a thread, under the ASGI server.

Django's ASGI handler runs a synchronous view and its middleware by hopping between the
event loop and a worker thread several times per request (asgiref's sync_to_async and
async_to_sync around each boundary between sync and async middleware), and it runs every
synchronous view of the process in one thread. Measured with py-spy under the capacity
issue's load, those hops were about a fifth of a web process's CPU, for no gain: our REST
and GraphQL-over-HTTP views are synchronous. Through the WSGI handler (a2wsgi runs it in a
small thread pool) a request crosses into a thread once and the whole middleware chain
and view run there.

Paths whose views are asynchronous (the feed's long-lived stream) and the static files
stay on Django's ASGI handler: a stream served through WSGI would hold a thread for as
long as the client listens, and a streamed response whose content is an asynchronous
iterator (the records export) would be collected whole in memory first: Django's WSGI
handler can only iterate synchronously. ``ASYNC_HTTP_PATHS`` lists those paths as
regular expressions matched at the start of the path; a test checks that every async
view, and every view marked ``streams_asynchronously``, is covered. Websockets never come
here (config/asgi.py).
"""

from __future__ import annotations

import re


class SplitHttp:
    """ASGI app: a request whose path begins with a match of one of ``async_paths``
    (regular expressions) goes to ``async_app``, every other HTTP request to ``sync_app``."""

    def __init__(self, *, sync_app, async_app, async_paths: tuple[str, ...]) -> None:
        self.sync_app = sync_app
        self.async_app = async_app
        self.async_path = re.compile("|".join(f"(?:{pattern})" for pattern in async_paths))

    def serves_async(self, path: str) -> bool:
        return self.async_path.match(path) is not None

    async def __call__(self, scope, receive, send) -> None:
        if self.serves_async(scope["path"]):
            await self.async_app(scope, receive, send)
        else:
            await self.sync_app(scope, receive, send)
