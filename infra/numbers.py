"""Whole numbers from requests: the one reader of every number a client sends, on every
transport (issue 39).

REST path parts and query strings (match ids, ``limit``, ``offset``, ``ply``, ``since``,
``after``, the stream's ``last_event_id`` and ``Last-Event-ID``), GraphQL ``ID`` arguments
and the play socket's fields (``match``, ``since``, ``after``, ``expected_ply``) are all
read here. Before, each reader called ``int()`` on whatever digits it got: Python refuses
``int()`` of more than 4,300 digits with ValueError, so a 5,000-digit id or ``limit`` was a
500 on 13 REST URLs, a GraphQL ``server_error`` and a socket ``internal_error``.

The rule (docs/api.md, "Numbers"):

- a number is an ``int`` (not a ``bool``), or a text of ASCII digits ``0``-``9`` only
  (spaces around allowed; no sign, no decimal point, no exponent, no other script's
  digits, which ``int()`` would read);
- a text has at most MAX_DIGITS digits, leading zeros included: counted before ``int()``
  runs, so no request makes the server convert a long digit string;
- the value lies in the range its field declares (at most BIGINT_MAX, what PostgreSQL's
  ``bigint`` holds; the socket's fields at most JSON_SAFE_MAX).

Anything else is refused with the field's stable code: ``invalid_input`` by default, or
the code the field already had (``match_not_found``, ``invalid_ply``, ``invalid_request``,
the socket's ``malformed_message``), naming the field in the details. A refused value is
shown at most SHOWN_CHARACTERS long, never whole.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.api_errors import ApiError

#: the longest digit string read: 2**64 has 20 digits, so every bigint fits, and a
#: string this short converts in well under a microsecond
MAX_DIGITS = 20
#: largest value PostgreSQL's bigint holds: an id above it is no row, not a database error
BIGINT_MAX = 2**63 - 1
#: largest whole number a JavaScript client holds exactly (the socket's fields)
JSON_SAFE_MAX = 2**53
#: how much of a refused value an error repeats
SHOWN_CHARACTERS = 20

_REQUIRED: Any = object()


class InvalidNumber(ApiError):
    """400 ``invalid_input``: a number that is malformed, too long or out of range."""

    default_code = "invalid_input"
    default_detail = _("A number in the request is not valid.")


def whole_number(value: Any, *, text: bool = True) -> int | None:
    """``value`` itself if it is an int (not a bool: callers check the range), the number
    a string of at most MAX_DIGITS ASCII digits spells (spaces around allowed) when
    ``text``, else None. Never calls ``int()`` on a longer string."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if text and isinstance(value, str):
        digits = value.strip()
        if 0 < len(digits) <= MAX_DIGITS and digits.isascii() and digits.isdigit():
            return int(digits)
    return None


def shown(value: Any) -> Any:
    """``value`` as an error's details may repeat it: a number in a JSON-safe range as
    itself, anything else as text cut to SHOWN_CHARACTERS."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= JSON_SAFE_MAX:
        return value
    return str(value)[:SHOWN_CHARACTERS]


def range_message(field: str, low: int, high: int) -> str:
    return gettext("%(name)s must be a whole number from %(low)s to %(high)s.") % {
        "name": field, "low": low, "high": high}


def parse_whole_number(value: Any, field: str, *, low: int = 0, high: int = BIGINT_MAX,
                       default: Any = _REQUIRED, text: bool = True,
                       error: Callable[..., Exception] = InvalidNumber) -> int:
    """The whole number ``value`` spells, in [low, high] (see ``whole_number``). Absent
    (None or an empty string) is ``default`` when one is given. Anything else raises
    ``error(message, details={field: shown value, "min": low, "max": high})``: an
    ApiError subclass keeps the field's own stable code (InvalidNumber, 400
    ``invalid_input``, by default)."""
    if (value is None or value == "") and default is not _REQUIRED:
        return default
    number = whole_number(value, text=text)
    if number is not None and low <= number <= high:
        return number
    raise error(range_message(field, low, high), details={
        field: shown(value if number is None else number), "min": low, "max": high})
