"""Every REST operation the URL map serves, with the scope its view declares: walked from
Django's resolver, so a route added anywhere is seen (tests/games/api/test_scopes.py,
tests/test_scope_docs.py)."""

from __future__ import annotations

from django.urls import URLPattern, URLResolver, get_resolver

from infra.api_views import HANDLED_METHODS

#: routes that are not the API's operations: Django admin (its own sessions and
#: permissions), GraphQL (its fields declare their scopes: games/graphql/scopes.py), the
#: OpenAPI document and its two viewers (public documents), and the OAuth server's own
#: endpoints (they authenticate apps, not tokens), and the pages a player's mails link to
#: (their signed link is the credential: games/api/mail/pages.py)
NOT_API_PREFIXES = ("admin/", "graphql/", "oauth/", ".well-known/", "api/v1/schema/",
                    "api/v1/docs/", "api/v1/redoc/", "mail/")


def _walk(patterns, prefix=""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _walk(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern.callback


def rest_operations():
    """``(route, method, view, declared)`` for each method each API route handles;
    ``declared`` is the view's ``required_scopes`` (None when it declares nothing)."""
    for route, callback in _walk(get_resolver().url_patterns):
        if route.startswith(NOT_API_PREFIXES):
            continue
        view = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if view is not None:
            methods = [m for m in HANDLED_METHODS if hasattr(view, m.lower())]
        else:  # a plain function view says what it handles in its declaration
            view = callback
            methods = list(getattr(callback, "required_scopes", None) or ["GET"])
        yield route, methods, view, getattr(view, "required_scopes", None)
