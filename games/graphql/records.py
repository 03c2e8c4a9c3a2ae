"""GraphQL fields of game records: ``matchRecord``, ``verifyRecord`` and
``recordSigningKeys`` (queries: none writes anything), the same selectors and service as
REST."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from games.records import selectors, services, signing


@strawberry.type(description="Whether a record's stated result follows from its seed "
                 "and moves, and whether the service signed it (docs/records.md).")
class RecordVerdict:
    valid: bool
    diverges_at_ply: int | None = strawberry.field(
        description="First ply that disagrees: 0 the deal, k the move at ply k, the "
        "number of moves the end; null when valid or when only the signature fails.")
    reason: str | None
    message: str
    plies_checked: int
    computed_result: JSON | None
    signature: str = strawberry.field(
        description="valid (signed by a published key), absent (replay only), "
        "unknown_key or mismatch (either makes the record invalid), unchecked (the "
        "replay refused the record first).")


@strawberry.type(description="A public key that signs game records (REST: GET "
                 "/api/v1/records/keys/; docs/records.md \"Signatures\").")
class RecordSigningKey:
    key_id: str = strawberry.field(description="First 16 hex digits of the SHA-256 of "
                                   "the public key's 32 bytes.")
    algorithm: str = strawberry.field(description="Ed25519.")
    public_key: str = strawberry.field(description="The 32 raw bytes, base64.")
    current: bool = strawberry.field(description="Whether new records are signed with "
                                     "it; the others are older keys, still published.")


@strawberry.type(description="Every key a record may be signed with, the current one "
                 "first.")
class RecordSigningKeySet:
    keys: list[RecordSigningKey]


@strawberry.type
class RecordQueries:
    @strawberry.field(description="The game record of a finished match "
                      "(error not_finished before the end).")
    def match_record(self, match_id: strawberry.ID) -> JSON:
        return selectors.record_of(match_id)

    @strawberry.field(description="Re-simulate a game record and check its signature "
                      "(REST: POST /api/v1/records/verify/).")
    def verify_record(self, record: JSON) -> RecordVerdict:
        return RecordVerdict(**services.verify_record(record))

    @strawberry.field(description="The public keys of the records' signatures, the "
                      "current one first.")
    def record_signing_keys(self) -> RecordSigningKeySet:
        return RecordSigningKeySet(keys=[RecordSigningKey(**key)
                                         for key in signing.published_keys()])
