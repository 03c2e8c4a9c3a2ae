"""GraphQL output types of clocks and incidents (games/clocks/), rendered from
``games.matches.clock_selectors`` like every other type here."""

from __future__ import annotations

from datetime import datetime

import strawberry


@strawberry.type(description="One seat's clock, counted down to the moment of reading.")
class SeatClock:
    seat: int
    remaining_ms: int = strawberry.field(description="Milliseconds left.")
    running: bool = strawberry.field(
        description="The seat owes a decision and a person holds it.")
    deadline: datetime | None = strawberry.field(
        description="When a running clock reaches 0; null when stopped.")

    @classmethod
    def from_row(cls, row: dict) -> SeatClock:
        return cls(seat=row["seat"], remaining_ms=row["remaining_ms"], running=row["running"],
                   deadline=row["deadline"])


@strawberry.type(description="A resignation, timeout, takeover, reclaim, forfeit or time "
                 "added, at the ply it happened (moves played before it).")
class Incident:
    ply: int
    seat: int
    kind: str = strawberry.field(
        description="resign, timeout, takeover, reclaim, forfeit or time_added.")
    username: str | None = strawberry.field(
        description="The player it happened to; null for added time.")
    user: str | None = strawberry.field(
        description="The same as username.",
        deprecation_reason="Use username: one name for a player (docs/api.md, Changes).")
    bot_kind: str | None
    seconds: int | None
    created_at: datetime

    @classmethod
    def from_row(cls, row: dict) -> Incident:
        return cls(ply=row["ply"], seat=row["seat"], kind=row["kind"],
                   username=row["username"], user=row["username"],
                   bot_kind=row["bot_kind"], seconds=row["seconds"],
                   created_at=row["created_at"])


@strawberry.type(description="A seat that resigned, forfeited or timed out, for the result.")
class ResultIncident:
    seat: int
    kind: str
    ply: int

    @classmethod
    def many(cls, rows: list[dict]) -> list[ResultIncident]:
        return [cls(seat=row["seat"], kind=row["kind"], ply=row["ply"]) for row in rows]
