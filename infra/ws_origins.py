"""The websocket origin check at /graphql/: the same allowed origins as CORS over HTTP.

A browser sends its page's Origin with every websocket handshake and, unlike fetch, needs
no CORS permission to open a socket; so without this check any web page a signed-in user
visits could subscribe with that user's credentials. Allowed: the origins of
``CORS_ALLOWED_ORIGINS`` (and ``CORS_ALLOWED_ORIGIN_REGEXES`` / ``CORS_ALLOW_ALL_ORIGINS``,
matched by django-cors-headers' own code so HTTP and websockets never disagree), the
origins its ``check_request_enabled`` signal allows (registered apps'), pages of
this server itself (the Origin's host is the Host the socket was opened to: GraphiQL), and
clients that send no Origin at all (scripts and bots: not a browser, so nothing to protect
and nothing the header would prove). Anything else is refused at the handshake (HTTP 403).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from corsheaders.conf import conf as cors_conf
from corsheaders.middleware import CorsMiddleware
from corsheaders.signals import check_request_enabled


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return value.decode("latin1")
    return None


def origin_allowed(origin: str | None, host: str | None) -> bool:
    if origin is None:
        return True
    url = urlsplit(origin)
    if host and url.scheme in ("http", "https") and url.netloc == host:
        return True
    if cors_conf.CORS_ALLOW_ALL_ORIGINS:
        return True
    if CorsMiddleware(get_response=_unused).origin_found_in_white_lists(origin, url):
        return True
    # what django-cors-headers asks beyond its settings: the registered apps' origins
    # (accounts/apps_oauth/origins.py), changed while the server runs
    return any(allowed for _receiver, allowed in
               check_request_enabled.send(sender=None, request=_OriginOnly(origin)))


class _OriginOnly:
    """What a ``check_request_enabled`` receiver may read of a handshake: its Origin."""

    def __init__(self, origin: str) -> None:
        self.headers = {"origin": origin}
        self.path_info = "/"


def _unused(request):  # CorsMiddleware wants a next handler; only its matching is used here
    return None


class CorsOriginValidator:
    """ASGI middleware for websocket routes: refuse handshakes from origins not allowed."""

    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        if origin_allowed(_header(scope, b"origin"), _header(scope, b"host")):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)
