"""One URL policy for the API: both spellings of every endpoint work.

Every route under ``/api/`` and ``/graphql`` answers with and without its trailing slash
(``/api/v1/matches/`` and ``/api/v1/matches``, ``/api/v1/me`` and ``/api/v1/me/``). Django
would otherwise redirect a GET (losing nothing but a round trip) and, with DEBUG on, answer
a POST with an HTML RuntimeError page (APPEND_SLASH cannot redirect a body); with DEBUG off
the POST became a 301 that clients follow as a GET. Rewriting the path before URL
resolution serves the request at once, whatever the method, and covers every route any app
adds later without touching its urls module. ``reverse()`` still gives the canonical
spelling.
"""

from __future__ import annotations

import re

from django.urls import is_valid_path

#: the API's paths: REST under /api/, GraphQL (HTTP; the websocket routes itself) at /graphql
API_PATH = re.compile(r"^/(api|graphql)(/|$)")


def is_api_path(path: str) -> bool:
    return bool(API_PATH.match(path))


def other_spelling(path: str) -> str:
    return path[:-1] if path.endswith("/") else path + "/"


class SlashPolicyMiddleware:
    """Serve an API path that does not resolve under its other spelling when that one does."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        path = request.path_info
        if is_api_path(path) and not is_valid_path(path):
            other = other_spelling(path)
            if is_valid_path(other):
                request.path_info = other
                # request.path too, so messages and logs name the endpoint that served it
                request.path = request.path[: len(request.path) - len(path)] + other
        return self.get_response(request)
