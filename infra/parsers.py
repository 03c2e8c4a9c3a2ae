"""The API's JSON decoding, one set of rules for every JSON body (REST's parser here and
GraphQL's request bodies, games/graphql/views.py; issue 39): UTF-8 text, strict JSON (no
``NaN`` or ``Infinity``), no integer literal longer than Python reads, nested at most
MAX_JSON_DEPTH levels. Anything else is ``malformed_json`` (400), never a 500: invalid
UTF-8 or a 5,000-digit number in a GraphQL body used to be one.

Python's json module recurses per nesting level, so a body like ``[[[[...]]]]`` a few
thousand levels deep raised RecursionError inside DRF's parser: a 500. No request of
this API needs more than a handful of levels, so anything deeper than MAX_JSON_DEPTH is
refused as ``malformed_json`` (400) before a view, a service or an engine sees it.

A string or key holding a control character anywhere in the body is ``invalid_input``
(400) naming its path (infra/text_inputs.py), except TAB, LF and CR in the fields the
view lists in ``multiline_fields``.
"""

from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext
from rest_framework.parsers import JSONParser
from rest_framework.utils.json import strict_constant

from infra.text_inputs import refuse_control_characters

#: far above any real request (a Han move is 4 levels deep), far below the recursion limit
MAX_JSON_DEPTH = 64


def json_depth(value: Any) -> int:
    """Nesting depth of a parsed JSON value (a scalar is 0), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
    return deepest


class MalformedJson(ValueError):
    """A body that breaks the JSON rules above: ``message`` in the reader's language (never
    Python's parser's English, issue 41) and ``details`` saying where, for the client."""

    def __init__(self, message: str, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.details = details or {}

    @classmethod
    def too_deep(cls) -> MalformedJson:
        return cls(gettext("The body is nested deeper than %(levels)s levels.")
                   % {"levels": MAX_JSON_DEPTH}, {"max_depth": MAX_JSON_DEPTH})

    @classmethod
    def of(cls, exc: ValueError) -> MalformedJson:
        """The refusal of a body whose decoding raised ``exc``: where it broke when the
        parser says so (line and column from 1, position in characters from 0)."""
        if isinstance(exc, UnicodeDecodeError):
            return cls(gettext("The body is not UTF-8 text."), {"position": exc.start})
        if isinstance(exc, json.JSONDecodeError):
            return cls(gettext("The body is not valid JSON (line %(line)s, column %(column)s).")
                       % {"line": exc.lineno, "column": exc.colno},
                       {"line": exc.lineno, "column": exc.colno, "position": exc.pos})
        # NaN, Infinity, or an integer longer than Python reads: valid to json, not to us
        return cls(gettext("The body holds NaN, Infinity or a number too long to read."))


def decode_json(data: str | bytes, encoding: str = "utf-8") -> Any:
    """The value of one JSON document (bytes in ``encoding``, or text) under the rules of
    every JSON body of the API, or MalformedJson. No recursion limit is reached: a
    document too deep for Python's parser is refused like one too deep for ours."""
    try:
        text = data.decode(encoding) if isinstance(data, (bytes, bytearray)) else data
        # a ValueError covers invalid UTF-8, bad JSON, NaN and a number past int()'s limit
        value = json.loads(text, parse_constant=strict_constant)
    except RecursionError:
        raise MalformedJson.too_deep() from None
    except ValueError as exc:
        raise MalformedJson.of(exc) from None
    if json_depth(value) > MAX_JSON_DEPTH:
        raise MalformedJson.too_deep()
    return value


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding") or "utf-8"
        try:
            data = decode_json(stream.read(), encoding)
        except MalformedJson as exc:
            # not at the top: infra.api_errors imports DRF's views, which import this
            # module (the parser setting) while api_errors is still half-initialised
            from infra.api_errors import MalformedJsonBody

            raise MalformedJsonBody(exc.message, details=exc.details) from None
        view = (parser_context or {}).get("view")
        refuse_control_characters(data, "" if isinstance(data, dict) else "body",
                                  multiline=getattr(view, "multiline_fields", ()))
        return data
