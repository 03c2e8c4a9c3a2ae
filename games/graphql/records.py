"""GraphQL fields of game records: ``matchRecord`` and ``verifyRecord`` (queries: neither
writes anything), the same selectors and service as REST."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from games.records import selectors, services


@strawberry.type(description="Whether a record's stated result follows from its seed "
                 "and moves (docs/records.md).")
class RecordVerdict:
    valid: bool
    diverges_at_ply: int | None = strawberry.field(
        description="First ply that disagrees: 0 the deal, k the move at ply k, the "
        "number of moves the end; null when valid.")
    reason: str | None
    message: str
    plies_checked: int
    computed_result: JSON | None


@strawberry.type
class RecordQueries:
    @strawberry.field(description="The game record of a finished match "
                      "(error not_finished before the end).")
    def match_record(self, match_id: strawberry.ID) -> JSON:
        return selectors.record_of(match_id)

    @strawberry.field(description="Re-simulate a game record (REST: POST "
                      "/api/v1/records/verify/).")
    def verify_record(self, record: JSON) -> RecordVerdict:
        return RecordVerdict(**services.verify_record(record))
