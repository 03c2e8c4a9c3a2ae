"""One way to write a moment in every API: ISO 8601 in UTC with a ``Z``
(``2026-12-05T06:01:02.123456Z``), as DRF writes a ``DateTimeField``. REST bodies, the
analysis, game records, the feed and GraphQL's ``DateTime`` all use it (issue 41: REST
said ``Z`` while the rest said ``+00:00``; docs/api.md "Changes")."""

from __future__ import annotations

from datetime import UTC, datetime


def utc_iso(moment: datetime | None) -> str | None:
    """``moment`` (aware) as ISO 8601 in UTC ending in ``Z``; None stays None."""
    if moment is None:
        return None
    return moment.astimezone(UTC).isoformat().removesuffix("+00:00") + "Z"
