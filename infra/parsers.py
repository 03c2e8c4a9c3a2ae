"""The API's JSON parser: DRF's, plus a bound on how deeply a document may nest and the
refusal of control characters.

Python's json module recurses per nesting level, so a body like ``[[[[...]]]]`` a few
thousand levels deep raised RecursionError inside DRF's parser: a 500. No request of
this API needs more than a handful of levels, so anything deeper than MAX_JSON_DEPTH is
refused as ``malformed_json`` (400) before a view, a service or an engine sees it.

A string or key holding a control character anywhere in the body is ``invalid_input``
(400) naming its path (infra/text_inputs.py), except TAB, LF and CR in the fields the
view lists in ``multiline_fields``.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

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


def _too_deep() -> str:
    return gettext("JSON parse error - nested deeper than %(levels)s levels.") % {
        "levels": MAX_JSON_DEPTH}


class BoundedJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(_too_deep()) from None
        if json_depth(data) > MAX_JSON_DEPTH:
            raise ParseError(_too_deep())
        view = (parser_context or {}).get("view")
        refuse_control_characters(data, "" if isinstance(data, dict) else "body",
                                  multiline=getattr(view, "multiline_fields", ()))
        return data
