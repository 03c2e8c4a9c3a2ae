"""GETs that pollers repeat (the match, its legal moves, its events): 304 from one narrow
query while nothing changed for the reader, else the answer with the version's ETag."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework import status
from rest_framework.response import Response

from games.matches import polling, selectors


def polled_response(request, match_id: str, build) -> Response:
    """A GET that pollers repeat: with ``If-None-Match`` naming the current version it
    answers 304 from one narrow query (games.matches.polling); otherwise ``build(match)`` with the
    version's ETag. ``private, no-cache``: each reader has their own view, and a cache
    must ask again every time."""
    if request.META.get("HTTP_IF_NONE_MATCH"):
        tag = polling.etag(request, polling.version_of(match_id))
        if polling.not_modified(request, tag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=poll_headers(tag))
    match = selectors.get_match(match_id)
    tag = polling.etag(request, polling.version_of_loaded(match))
    return Response(build(match), headers=poll_headers(tag))


def poll_headers(tag: str) -> dict:
    return {"ETag": tag, "Cache-Control": "private, no-cache"}


#: documented on every polled GET
CONDITIONAL = OpenApiParameter(
    "If-None-Match", str, OpenApiParameter.HEADER,
    description="The ETag of your last answer: 304 Not Modified (no body) while the match "
    "has not changed for you.",
)


# -- the catalogue ----------------------------------------------------------------------------
