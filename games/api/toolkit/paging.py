"""The one envelope of every REST list (issue 22): ``{"count", "next", "previous",
"results"}``, paged by ``limit`` (1 to 100, default 20) and ``offset`` (0 or more, default
0) everywhere: matches, the catalogue, a match's move log, leaderboards, rating histories,
invitations, quick-match requests.

``count`` is the number of rows in the whole list, ``next`` and ``previous`` the absolute
URLs of the neighbouring pages (the request's own query string with ``offset`` moved),
null at either end. A bad ``limit`` or ``offset`` is a 400 ``invalid_request``
(games.matches.parsing.parse_page), never a silent default. Every list endpoint declares
its page with ``page_of`` (the OpenAPI component ``<Item>Page``) and ``PAGE_PARAMETERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.utils.urls import remove_query_param, replace_query_param

from games.matches import parsing

PAGE_QUERY = ("limit", "offset")

PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description=f"Rows per page, 1 to {parsing.MAX_PAGE_SIZE}; "
                     f"default {parsing.DEFAULT_PAGE_SIZE}."),
    OpenApiParameter("offset", int, description="Rows to skip, 0 or more; default 0."),
]


def bounds(request) -> tuple[int, int]:
    """``(limit, offset)`` of the request: 400 ``invalid_request`` when out of bounds."""
    return parsing.parse_page(request.query_params.get("limit"),
                              request.query_params.get("offset"))


def envelope(request, *, count: int, limit: int, offset: int, results: list) -> dict:
    """The page around ``results`` with links to its neighbours."""
    url = request.build_absolute_uri()
    following = None
    if offset + limit < count:
        following = replace_query_param(url, "offset", offset + limit)
    preceding = None
    if offset > 0:
        preceding = (remove_query_param(url, "offset") if offset - limit <= 0
                     else replace_query_param(url, "offset", offset - limit))
    return {"count": count, "next": following, "previous": preceding, "results": results}


def paged(request, rows: Any, render: Callable[[Any], Any] = lambda row: row) -> dict:
    """One page of ``rows`` (a queryset, counted and sliced in SQL, or a list), each
    rendered by ``render``."""
    limit, offset = bounds(request)
    count = rows.count() if hasattr(rows, "query") else len(rows)
    results = [render(row) for row in rows[offset:offset + limit]]
    return envelope(request, count=count, limit=limit, offset=offset, results=results)


def whole(request, results: Iterable) -> dict:
    """A list that is answered whole (what one request created): the same envelope, with
    no neighbours."""
    results = list(results)
    return {"count": len(results), "next": None, "previous": None, "results": results}


@cache
def page_of(item: type[serializers.Serializer]) -> type[serializers.Serializer]:
    """The OpenAPI shape of a page of ``item`` rows: the component ``<Item>Page``."""
    base = item.__name__.removesuffix("Serializer")
    return type(f"{base}PageSerializer", (serializers.Serializer,), {
        "__doc__": f"A page of {base} rows (docs/api.md, lists).",
        "count": serializers.IntegerField(help_text="Rows in the whole list."),
        "next": serializers.URLField(allow_null=True, help_text="The next page; null at "
                                     "the end."),
        "previous": serializers.URLField(allow_null=True, help_text="The previous page; "
                                         "null at the start."),
        "results": item(many=True),
    })
