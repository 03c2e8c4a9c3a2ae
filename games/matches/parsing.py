"""Numbers from requests: match ids, plies and list pages, as every reader and writer
takes them (URL parts, query strings, JSON bodies, GraphQL arguments, the play socket).
Anything malformed is a clear error with a stable code (404 for an id, 400 otherwise),
never a database error. Every number is read by infra/numbers.py's one rule (ASCII
digits, at most 20 of them, in range); this module gives each field its stable code.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.matches import errors
from infra.numbers import BIGINT_MAX, parse_whole_number, shown, whole_number

# the bounds of a page, every list's, REST's and GraphQL's alike (infra/paging.py): here too,
# for the readers of match lists
from infra.paging import DEFAULT_PAGE_SIZE, MAX_OFFSET, MAX_PAGE_SIZE, parse_page  # noqa: F401


def parse_match_id(match_id: Any) -> int:
    """A match id from a URL or a request (a string of digits, or a JSON number); anything
    malformed, too long or out of range is MatchNotFound (404)."""
    number = whole_number(match_id)
    if number is None or not 1 <= number <= BIGINT_MAX:
        details = {"match_id": shown(match_id)} if isinstance(match_id, str) else None
        raise errors.MatchNotFound(details=details)
    return number


def parse_number(value: Any, name: str, *, low: int, high: int,
                 default: int | None = None) -> int:
    """A whole number of a request's query string or arguments in [low, high] (``default``
    when absent, required when None); anything else is InvalidRequest (400
    ``invalid_request``) naming ``name``. The infra/numbers.py rule, with this API's code."""
    if default is None:
        return parse_whole_number(value, name, low=low, high=high,
                                  error=errors.InvalidRequest)
    return parse_whole_number(value, name, low=low, high=high, default=default,
                              error=errors.InvalidRequest)


def parse_ply(value: Any, *, upper: int, name: str = "ply") -> int:
    """A ply from a query string, in [0, upper]; anything else is InvalidPly (400)."""
    return parse_whole_number(value, name, low=0, high=upper, error=errors.InvalidPly)


def parse_flag(raw: Any, name: str) -> bool | None:
    """A yes/no query parameter: None when absent or empty, else True or False, or
    InvalidRequest (400) for anything else."""
    if raw is None or raw == "":
        return None
    value = str(raw).strip().lower()
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise errors.InvalidRequest(_("%(name)s must be true or false.") % {"name": name},
                                details={name: str(raw)[:20]})
