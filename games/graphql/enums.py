"""GraphQL enums of the games domain (values in capitals, as that ecosystem writes them)."""

from __future__ import annotations

import enum

import strawberry

from games.matches.models import MatchStatus

MatchStatusEnum = strawberry.enum(
    enum.Enum("MatchStatus", {status.name: status.value for status in MatchStatus}),
    description="Lifecycle of a match: open (waiting for players), active, scoring, "
    "finished, aborted.",
)


@strawberry.enum(description="Who holds a seat.")
class SeatKind(enum.Enum):
    HUMAN = "human"
    BOT = "bot"
    OPEN = "open"
