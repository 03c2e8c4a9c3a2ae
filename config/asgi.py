"""ASGI entry point (daphne). HTTP goes to Django; the websocket route for GraphQL
subscriptions is added to this router when the GraphQL layer lands."""

import os

from channels.routing import ProtocolTypeRouter
from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, schema): keep this first.
# daphne serves no static files and there is no front web server in this project, so the
# admin's CSS/JS come from Django's staticfiles handler (fine at this scale; put a CDN or a
# web server in front for heavy traffic).
django_asgi_app = ASGIStaticFilesHandler(get_asgi_application())

application = ProtocolTypeRouter({"http": django_asgi_app})
