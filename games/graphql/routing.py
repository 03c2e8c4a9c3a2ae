"""Websocket routes for config/asgi.py: subscriptions live at the same path as HTTP."""

from django.urls import re_path

from games.graphql.schema import schema
from games.graphql.websocket import GraphQLSubscriptionConsumer, QueryTokenAuthMiddleware

websocket_urlpatterns = [
    re_path(
        r"^graphql/?$",
        QueryTokenAuthMiddleware(GraphQLSubscriptionConsumer.as_asgi(schema=schema)),
    ),
]
