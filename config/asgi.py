"""ASGI entry point (uvicorn in production, daphne for runserver). HTTP goes to Django
(GraphQL over HTTP included, at /graphql/): through its WSGI handler in a thread pool,
except the asynchronous views and static files (config/http_split.py); websockets at
/graphql/ carry the GraphQL subscriptions (graphql-transport-ws), those at /play/ the play
socket (games/play/, docs/play.md), both authenticated by the same DRF tokens as REST."""

import os

from a2wsgi import WSGIMiddleware
from channels.routing import ProtocolTypeRouter, URLRouter
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, schema): keep this first.
# uvicorn serves no static files and the compose entry (nginx) only proxies, so the admin's
# CSS/JS come from Django's staticfiles handler (fine at this scale; put a CDN or a web
# server in front for heavy traffic).
django_asgi_app = ASGIStaticFilesHandler(get_asgi_application())

from django.conf import settings  # noqa: E402 - set up above

from config.http_split import SplitHttp  # noqa: E402

# WEB_THREADS requests at once per process, each holding one pooled database connection
django_wsgi_app = WSGIMiddleware(get_wsgi_application(), workers=settings.WEB_THREADS)
http_app = SplitHttp(sync_app=django_wsgi_app, async_app=django_asgi_app,
                     async_paths=settings.ASYNC_HTTP_PATHS)

from django.urls import re_path  # noqa: E402

from games.graphql.routing import websocket_urlpatterns  # noqa: E402
from games.play.connection import play_application  # noqa: E402
from infra.ws_origins import CorsOriginValidator  # noqa: E402 - needs Django set up

# /play/: the play socket (docs/play.md); /graphql/: GraphQL subscriptions.
websocket_routes = [re_path(r"^play/?$", play_application), *websocket_urlpatterns]

# Browsers open websockets from any page: the handshake's Origin must be one CORS allows
# over HTTP (CORS_ALLOWED_ORIGINS), this server's own, or absent (non-browser clients).
application = ProtocolTypeRouter(
    {"http": http_app, "websocket": CorsOriginValidator(URLRouter(websocket_routes))}
)

# Everything a request needs is loaded now (the URL patterns and views, the GraphQL schema,
# the engines): out of the garbage collector's way for good (infra/startup_heap.py).
from django.urls import get_resolver  # noqa: E402

from infra import gil_switch, startup_heap  # noqa: E402
from rules import available_games, get_engine  # noqa: E402

get_resolver().url_patterns  # noqa: B018 - imports every view module
for _game in available_games():
    get_engine(_game)
startup_heap.freeze()
gil_switch.apply()
