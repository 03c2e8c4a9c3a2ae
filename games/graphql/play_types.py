"""GraphQL output types of a match's play and record: log entries, the caller's legal
moves, results, replays and polled events. Rendered from ``games.matches.selectors``,
like every type of this package, so GraphQL shows exactly what REST shows."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.scalars import JSON

from games.graphql.clock_types import Incident, ResultIncident, SeatClock
from games.graphql.enums import MatchStatusEnum
from games.matches import errors, selectors
from games.matches.models import Match


@strawberry.type(description="One entry of the move log, as the reader may see it.")
class LoggedMove:
    ply: int = strawberry.field(description="Moves played before this one.")
    seat: int
    move: JSON = strawberry.field(
        description="The move; while the match runs, redacted for the reader by the engine."
    )
    events: list[JSON] = strawberry.field(
        description="What the move caused, in order; while the match runs another seat's "
        "secret is replaced by a public stand-in (a pile draw without its card)."
    )
    created_at: datetime

    @classmethod
    def from_entry(cls, entry: dict) -> LoggedMove:
        return cls(
            ply=entry["ply"], seat=entry["seat"], move=entry["move"],
            events=list(entry.get("events", [])), created_at=entry["created_at"],
        )


@strawberry.type(description="The caller's decision now.")
class LegalMoves:
    seat: int
    ply: int
    to_act: list[int]
    moves: list[JSON] = strawberry.field(
        description="Every legal move of the caller's seat (empty when it owes nothing)."
    )


@strawberry.type
class SeatResult:
    seat: int
    score: int
    rank: int = strawberry.field(description="1 = best; equal ranks after the tie-breaks.")
    tie_break: JSON = strawberry.field(description="This seat's tie-break values.")
    breakdown: JSON = strawberry.field(description="Where every point came from.")


@strawberry.type(description="Final scores, once the match is finished.")
class MatchResult:
    match_id: strawberry.ID
    status: str = strawberry.field(description="finished (a result exists only then).")
    seed: str = strawberry.field(description="The seed, to check sha256(seed) == commitment.")
    end_reason: str | None = strawberry.field(description="Why the game ended.")
    tie_break_keys: list[str] = strawberry.field(
        description="The tie-breaks after the score, in the order they apply."
    )
    results: list[SeatResult]
    ranks: list[int]
    winners: list[int]
    forfeits: list[ResultIncident] = strawberry.field(
        description="Seats that resigned or forfeited (ranked last), first to go first.")
    timeouts: list[ResultIncident] = strawberry.field(
        description="Seats whose clock ran out (taken over or forfeited).")

    @classmethod
    def from_selector(cls, body: dict) -> MatchResult:
        return cls(
            match_id=strawberry.ID(str(body["match_id"])),
            status=body["status"],
            seed=body["seed"],
            end_reason=body["end_reason"],
            tie_break_keys=list(body["tie_break_keys"]),
            results=[
                SeatResult(
                    seat=row["seat"], score=row["score"], rank=row["rank"],
                    tie_break=row["tie_break"], breakdown=row["breakdown"],
                )
                for row in body["results"]
            ],
            ranks=list(body["ranks"]),
            winners=list(body["winners"]),
            forfeits=ResultIncident.many(body["forfeits"]),
            timeouts=ResultIncident.many(body["timeouts"]),
        )


def result_or_none(match: Match) -> MatchResult | None:
    try:
        return MatchResult.from_selector(selectors.match_result(match))
    except errors.NotFinished:
        return None


@strawberry.type(description="The state after a given ply, as the reader may see it.")
class Replay:
    match_id: strawberry.ID
    ply: int
    seat: int | None = strawberry.field(description="The reader's seat, if any.")
    ended: bool = strawberry.field(description="The match has ended: everything is shown.")
    view: JSON
    move: LoggedMove | None = strawberry.field(
        description="The move that led to this ply (null at ply 0), redacted like the log."
    )
    state: JSON | None = strawberry.field(
        description="The full engine state: only once the match has ended."
    )
    views: list[JSON] | None = strawberry.field(
        description="Once ended: every seat's view, in seat order (the all-seeing picture)."
    )

    @classmethod
    def from_selector(cls, match_id, body: dict) -> Replay:
        move = body["move"]
        return cls(
            match_id=strawberry.ID(str(match_id)), ply=body["ply"], seat=body["seat"],
            ended=body["ended"], view=body["view"],
            move=LoggedMove.from_entry(move) if move is not None else None,
            state=body.get("state"), views=body.get("views"),
        )


@strawberry.type(description="Moves and view since a ply, for polling clients.")
class MatchEvents:
    since: int
    ply: int
    status: MatchStatusEnum  # type: ignore[valid-type]
    to_act: list[int]
    moves: list[LoggedMove]
    view: JSON | None
    clocks: list[SeatClock] = strawberry.field(
        default_factory=list, description="Each seat's clock; empty without a time control.")
    incidents: list[Incident] = strawberry.field(
        default_factory=list, description="Every incident so far (resign, timeout...).")


def events_from_selector(body: dict) -> MatchEvents:
    return MatchEvents(
        since=body["since"],
        ply=body["ply"],
        status=MatchStatusEnum(body["status"]),
        to_act=list(body["to_act"]),
        moves=[LoggedMove.from_entry(entry) for entry in body["moves"]],
        view=body["view"],
        clocks=[SeatClock.from_row(row) for row in body["clocks"]],
        incidents=[Incident.from_row(row) for row in body["incidents"]],
    )
