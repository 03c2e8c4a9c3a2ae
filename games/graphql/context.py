"""The per-operation context both transports hand to resolvers: who is calling."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AnonymousUser
from strawberry.django.context import StrawberryDjangoContext
from strawberry.types import Info


@dataclass
class GraphQLContext(StrawberryDjangoContext):
    #: the authenticated user, or AnonymousUser (a spectator)
    user: Any = field(default_factory=AnonymousUser)
    #: what authenticated an HTTP request (the DRF Token for token auth), else None
    auth: Any = None
    #: the websocket consumer for subscriptions, None over HTTP
    ws: Any = None
    #: the graphql-transport-ws connection_init payload (set by strawberry)
    connection_params: dict | None = None


def current_user(info: Info):
    return info.context.user


def authenticated_user(info: Info):
    """The caller if signed in, else None (mutations turn None into a typed error)."""
    user = info.context.user
    return user if user is not None and user.is_authenticated else None
