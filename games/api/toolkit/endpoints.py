"""What every REST module of games/ shares when it declares an endpoint: the match-id path
parameter, the typed error responses, the one way a JSON body is validated and the one
way an answer is rendered. Each capability's views (games/api/<capability>/views.py)
import these, so the OpenAPI document describes every endpoint the same way."""

from __future__ import annotations

from functools import cache

from drf_spectacular.utils import OpenApiParameter

from infra.api_errors import ErrorSerializer

MATCH_ID = OpenApiParameter("match_id", int, OpenApiParameter.PATH, description="Match id.")


def error_responses(*codes: int) -> dict:
    """The error statuses an endpoint answers, each with the one error shape. 401 is always
    there: a bad or revoked token is refused before any view runs, reads too."""
    return {code: ErrorSerializer for code in sorted({*codes, 401})}


def parse_body(serializer_class, request):
    """The validated body, or a 400 ``invalid_input`` with per-field details."""
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


@cache
def _output_serializer(serializer_class):
    return serializer_class()


def represent(serializer_class, data) -> dict:
    """``serializer_class(data).data``, through one instance per class and process.

    DRF deep-copies a serializer's declared fields every time one is made: 0.6 ms of CPU
    for a match's detail on our machine, more than the rest of a poll's Python work
    (issue 14). Output serializers here hold no per-request state (no context, no method
    fields), and ``to_representation`` only reads the bound fields, so one instance per
    class serves every request, in any thread."""
    return _output_serializer(serializer_class).to_representation(data)
