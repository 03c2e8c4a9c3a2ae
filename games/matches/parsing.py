"""Numbers from requests: match ids, plies and list pages, as every reader and writer
takes them (URL parts, query strings, JSON bodies, GraphQL arguments). Anything malformed
is a clear error with a stable code (404 for an id, 400 otherwise), never a database error.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.matches import errors

#: largest id PostgreSQL's bigint holds: anything above is "no such match", not a 500
_MAX_ID = 2**63 - 1

#: match list pages, REST and GraphQL alike
DEFAULT_PAGE_SIZE = 20
MAX_PAGE_SIZE = 100
#: GraphQL's Int range; also keeps LIMIT/OFFSET far inside PostgreSQL's bigint (a larger
#: value used to reach the database and fail there with a 500)
MAX_OFFSET = 2**31 - 1


# -- whole numbers ----------------------------------------------------------------
def whole_number(value: Any) -> int | None:
    """``value`` itself if it is an int (not a bool; callers check the range), the number
    a string of ASCII digits spells (spaces around allowed), else None. ASCII only:
    ``str.isdigit()`` also takes fullwidth or Arabic-Indic digits, which ``int()`` reads."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit():
            return int(text)
    return None


def parse_match_id(match_id: Any) -> int:
    """A match id from a URL or a request; anything malformed is MatchNotFound (404)."""
    number = whole_number(match_id)
    if isinstance(match_id, str) and number is None:
        raise errors.MatchNotFound(details={"match_id": match_id[:40]})
    if number is None or not 1 <= number <= _MAX_ID:
        raise errors.MatchNotFound()
    return number


def _page_number(value: Any, name: str, low: int, high: int, default: int) -> int:
    if value is None or value == "":
        return default
    number = whole_number(value)
    if number is not None and low <= number <= high:
        return number
    raise errors.InvalidRequest(
        _("%(name)s must be a whole number from %(low)s to %(high)s.")
        % {"name": name, "low": low, "high": high},
        details={name: str(value)[:20], "min": low, "max": high},
    )


def parse_page(limit: Any, offset: Any) -> tuple[int, int]:
    """``(limit, offset)`` of a match list page from query-string values: limit 1 to
    MAX_PAGE_SIZE (default DEFAULT_PAGE_SIZE), offset 0 to MAX_OFFSET (default 0).
    Anything else is InvalidRequest (400)."""
    return (
        _page_number(limit, "limit", 1, MAX_PAGE_SIZE, DEFAULT_PAGE_SIZE),
        _page_number(offset, "offset", 0, MAX_OFFSET, 0),
    )


def parse_ply(value: Any, *, upper: int, name: str = "ply") -> int:
    """A ply from a query string, in [0, upper]; anything else is InvalidPly (400)."""
    ply = whole_number(value)
    if ply is None:
        raise errors.InvalidPly(_("%(name)s must be a whole number from 0 to %(max)s.")
                                % {"name": name, "max": upper},
                                details={name: str(value)[:20], "max": upper})
    if not 0 <= ply <= upper:
        raise errors.InvalidPly(_("%(name)s must be a whole number from 0 to %(max)s.")
                                % {"name": name, "max": upper}, details={name: ply, "max": upper})
    return ply


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
