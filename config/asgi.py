"""ASGI entry point (daphne). HTTP goes to Django; the websocket route for GraphQL
subscriptions is added to this router when the GraphQL layer lands."""

import os

from channels.routing import ProtocolTypeRouter
from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django must be set up before anything imports models (consumers, schema): keep this first.
django_asgi_app = get_asgi_application()

application = ProtocolTypeRouter({"http": django_asgi_app})
