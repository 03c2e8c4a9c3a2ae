"""The one envelope of every REST list (issue 22): ``{"count", "next", "previous",
"results"}``, paged by ``limit`` (1 to 100, default 20) and ``offset`` (0 or more, default
0) everywhere: matches, the catalogue, a match's move log, leaderboards, rating histories,
invitations, quick-match requests, a player's personal tokens and apps (accounts). In
infra, below games and accounts, so both answer lists alike.

``count`` is the number of rows in the whole list, ``next`` and ``previous`` the absolute
URLs of the neighbouring pages (the request's own query string with ``offset`` moved),
null at either end. A bad ``limit`` or ``offset`` is a 400 ``invalid_request``
(``parse_page``, read as every request number is: infra/numbers.py), never a silent
default. Every list endpoint declares
its page with ``page_of`` (the OpenAPI component ``<Item>Page``) and ``PAGE_PARAMETERS``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.utils.urls import remove_query_param, replace_query_param

from infra.api_errors import ApiError
from infra.numbers import parse_whole_number

PAGE_QUERY = ("limit", "offset")
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
#: GraphQL's Int range; also keeps LIMIT/OFFSET far inside PostgreSQL's bigint (a larger
#: value used to reach the database and fail there with a 500)
MAX_OFFSET = 2**31 - 1


class InvalidPageBounds(ApiError):
    status_code = 400
    default_code = "invalid_request"


def parse_page(limit: Any, offset: Any) -> tuple[int, int]:
    """``(limit, offset)`` of a page from query-string values or arguments: limit 1 to
    MAX_PAGE_SIZE (default DEFAULT_PAGE_SIZE), offset 0 to MAX_OFFSET (default 0);
    anything else is 400 ``invalid_request`` naming the field."""
    return (parse_whole_number(limit, "limit", low=1, high=MAX_PAGE_SIZE,
                               default=DEFAULT_PAGE_SIZE, error=InvalidPageBounds),
            parse_whole_number(offset, "offset", low=0, high=MAX_OFFSET, default=0,
                               error=InvalidPageBounds))

PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description=f"Rows per page, 1 to {MAX_PAGE_SIZE}; "
                     f"default {DEFAULT_PAGE_SIZE}."),
    OpenApiParameter("offset", int, description="Rows to skip, 0 or more; default 0."),
]


def bounds(request) -> tuple[int, int]:
    """``(limit, offset)`` of the request: 400 ``invalid_request`` when out of bounds."""
    return parse_page(request.query_params.get("limit"), request.query_params.get("offset"))


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
