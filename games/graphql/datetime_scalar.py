"""GraphQL's ``DateTime`` written as REST writes a moment: ISO 8601 in UTC ending in ``Z``
(infra/timestamps.py), not strawberry's ``+00:00`` (issue 41). Input is read as before
(any ISO 8601 with an offset)."""

from __future__ import annotations

import dataclasses

from strawberry.schema.types.base_scalars import DateTimeDefinition

from infra.timestamps import utc_iso

UTC_DATETIME = dataclasses.replace(
    DateTimeDefinition,
    description="Date with time: ISO 8601 in UTC ending in Z (2026-12-05T06:01:02.5Z)",
    serialize=utc_iso,
)
