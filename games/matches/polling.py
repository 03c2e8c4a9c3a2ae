"""Conditional GETs for polling clients (issue 14): an ETag per match version and reader,
and a narrow read that answers ``If-None-Match`` with 304 without loading the state JSON.

A match's version is (id, ply, status, updated_at). The ply and status change with every
move and every change of phase; ``updated_at`` also moves when a seat is taken, given up
or handed to a bot (``games.matches`` touches it), which changes what GET shows while
the ply stays 0. The tag also covers the reader (each one sees their own view) and the
full path with its query string (``events?since=3`` is not ``events?since=0``).

The tag is a hash: it shows nothing of the state, hidden or not.
"""

from __future__ import annotations

import hashlib
from functools import cache
from typing import Any

from games.matches import errors
from games.matches.models import Match
from games.matches.parsing import parse_match_id
from infra.prepared import prepared_cursor

#: bump when the shape of a polled response changes, so old tags stop matching
REPRESENTATION = "1"


@cache
def _version_statement() -> str:
    meta = Match._meta
    columns = ", ".join(f'"{meta.get_field(name).column}"'
                        for name in ("id", "ply", "status", "updated_at"))
    return f'SELECT {columns} FROM "{meta.db_table}" WHERE "{meta.pk.column}" = %s'


def version_of(match_id: Any) -> tuple:
    """(id, ply, status, updated_at) of a match, from one narrow query (no state JSON, no
    seats). Raises MatchNotFound (404)."""
    pk = parse_match_id(match_id)
    # fixed SQL: the ORM spent more CPU building this query than PostgreSQL answering it,
    # and pollers send it more than anything else (issue 14)
    with prepared_cursor() as cursor:  # infra/prepared.py
        cursor.execute(_version_statement(), [pk])
        row = cursor.fetchone()
    if row is None:
        raise errors.MatchNotFound(details={"match_id": pk})
    return tuple(row)


def version_of_loaded(match: Match) -> tuple:
    """The same version, from a match the caller has loaded already."""
    return (match.pk, match.ply, match.status, match.updated_at)


def etag(request, version: tuple) -> str:
    """A strong ETag for ``request``'s path and reader at ``version``."""
    user = getattr(request, "user", None)
    reader = user.pk if user is not None and user.is_authenticated else "-"
    pk, ply, status, updated_at = version
    key = "|".join(str(part) for part in (
        REPRESENTATION, request.get_full_path(), reader, pk, ply, status,
        updated_at.isoformat() if updated_at else ""))
    return '"' + hashlib.sha256(key.encode()).hexdigest()[:32] + '"'


def not_modified(request, tag: str) -> bool:
    """True when ``If-None-Match`` names ``tag`` (or is ``*``); weak tags compare by value
    (RFC 9110: If-None-Match uses the weak comparison)."""
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return False
    offered = {part.strip().removeprefix("W/") for part in header.split(",")}
    return "*" in offered or tag in offered
