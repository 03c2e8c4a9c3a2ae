"""GraphQL output types of the games domain.

Every game fact is rendered from ``games.selectors``: a type here never reads a snapshot,
never calls the engine and never strips hidden information by itself. ``Match`` is a
strawberry-django type over the model; its game fields (view, log, legal moves, seats,
seed) are resolved through the selectors with the caller as the reader, so GraphQL shows
exactly what REST shows to the same person.
"""

from __future__ import annotations

import enum
from datetime import datetime

import strawberry
import strawberry_django
from strawberry.scalars import JSON
from strawberry.types import Info

from games import errors, selectors
from games.clocks import selectors as clock_selectors
from games.graphql.clock_types import Incident, ResultIncident, SeatClock
from games.graphql.context import current_user
from games.models import Match, MatchStatus

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


@strawberry.type(description="One problem with a request, with the same stable code as REST.")
class GameError:
    code: str = strawberry.field(
        description='Stable, machine-readable (e.g. "illegal_move", "stale_ply"); '
        "identical to the REST error code."
    )
    message: str = strawberry.field(description="For people; may change.")
    field: str | None = strawberry.field(
        default=None, description="The argument at fault, when there is one."
    )
    details: JSON | None = strawberry.field(
        default=None, description="Structured context; never hidden information."
    )


@strawberry.type
class PlayerRange:
    min: int
    max: int


@strawberry.type(description="A game of the catalogue, with its option schema.")
class Game:
    game: str = strawberry.field(description='Registry key: "han" or "hansa".')
    title: str
    players: PlayerRange
    options: JSON = strawberry.field(description="JSON schema of the game's options.")
    rules_version: str
    bot_kinds: list[str]
    time_controls: JSON = strawberry.field(
        default_factory=list,
        description="The time-control presets a match may be created with.")
    bot_levels: JSON = strawberry.field(
        default=None,
        description="Each bot kind: description, search budget (null for random and greedy) "
        "and strength measured in this game (win rates, think time per move).",
    )
    maps: JSON | None = strawberry.field(
        default=None,
        description="Han: each map's name, player counts, board data (geometry, roads, "
        "alliances) and dragon spaces for drawing it; null for games without maps.",
    )
    drawing: JSON | None = strawberry.field(
        default=None,
        description="What a client needs to draw the game: Han's canvas, colours and scoring "
        "track; Hansa's cities and colours, every card, the prosperity track with its "
        "multipliers, the profit and luxury tables.",
    )
    move_schema: JSON = strawberry.field(
        default=None,
        description="JSON Schema of the game's moves: a oneOf with a type discriminator.",
    )

    @classmethod
    def from_entry(cls, entry: dict) -> Game:
        return cls(
            game=entry["game"],
            title=entry.get("title", entry["game"]),
            players=PlayerRange(min=entry["players"]["min"], max=entry["players"]["max"]),
            options=entry.get("options", {}),
            rules_version=str(entry.get("rules_version", "")),
            bot_kinds=list(entry.get("bot_kinds", [])),
            time_controls=entry.get("time_controls", []),
            bot_levels=entry.get("bot_levels", []),
            maps=entry.get("maps"),
            drawing=entry.get("drawing"),
            move_schema=entry["move_schema"],
        )


@strawberry.type(description="A position at the table and who holds it (public).")
class Seat:
    position: int
    kind: SeatKind
    user: str | None = strawberry.field(description="Username of a human seat.")
    bot_kind: str | None

    @classmethod
    def from_row(cls, row: dict) -> Seat:
        return cls(
            position=row["position"],
            kind=SeatKind(row["kind"]),
            user=row["user"],
            bot_kind=row["bot_kind"],
        )


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


@strawberry_django.type(Match, name="Match", description="A match, seen by the caller.")
class MatchType:
    id: strawberry.ID
    game: str
    options: JSON
    players: int
    ply: int = strawberry_django.field(description="Moves played so far.")
    seed_commitment: str = strawberry_django.field(
        description="sha256(seed), public from the start."
    )
    rules_version: str
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    abort_reason: str

    @strawberry_django.field
    def status(self, root: Match) -> MatchStatusEnum:  # type: ignore[valid-type]
        return MatchStatusEnum(root.status)

    @strawberry_django.field(description="Username of the creator.")
    def created_by(self, root: Match) -> str | None:
        return root.created_by.username if root.created_by else None

    @strawberry_django.field(description="Revealed once the match is finished or aborted.")
    def seed(self, root: Match) -> str | None:
        return selectors.revealed_seed(root)

    @strawberry_django.field(description="Every position, open ones included.")
    def seats(self, root: Match) -> list[Seat]:
        return [Seat.from_row(row) for row in selectors.seats_of(root)]

    @strawberry_django.field(description="The caller's position, null for a spectator.")
    def your_seat(self, root: Match, info: Info) -> int | None:
        return selectors.seat_of(root, current_user(info))

    @strawberry_django.field(description="Seats owing a decision now.")
    def to_act(self, root: Match) -> list[int]:
        return selectors.to_act_of(root)

    @strawberry_django.field(
        description="engine.view for the caller's seat, or the spectator view; null before "
        "the start."
    )
    def view(self, root: Match, info: Info) -> JSON | None:
        return selectors.view_for(root, current_user(info))

    @strawberry_django.field(
        description="The caller's legal moves; null with an error not_seated for a "
        "spectator (the rest of the match is still served)."
    )
    def legal_moves(self, root: Match, info: Info) -> LegalMoves | None:
        body = selectors.legal_moves_for(root, current_user(info))
        return LegalMoves(
            seat=body["seat"], ply=body["ply"], to_act=list(body["to_act"]),
            moves=list(body["moves"]),
        )

    @strawberry_django.field(
        description="The move log from ply `since` on, at most `limit` moves (1 to "
        f"{selectors.MAX_PAGE_SIZE}, as REST pages): the next page starts at `since` plus "
        "the moves returned. Redacted for the caller while the match runs, whole after "
        "the end."
    )
    def log(self, root: Match, info: Info, since: int = 0,
            limit: int = selectors.MAX_PAGE_SIZE) -> list[LoggedMove]:
        since_ply = selectors.parse_ply(since, upper=root.ply, name="since")
        limit, _offset = selectors.parse_page(limit, 0)  # REST's bounds and errors
        entries = selectors.move_log(root, current_user(info), since=since_ply, limit=limit)
        return [LoggedMove.from_entry(entry) for entry in entries]

    @strawberry_django.field(
        description="Moves since a ply (at most `limit`, 1 to "
        f"{selectors.MAX_PAGE_SIZE}) and the caller's view."
    )
    def events(self, root: Match, info: Info, since: int = 0,
               limit: int = selectors.MAX_PAGE_SIZE) -> MatchEvents:
        limit, _offset = selectors.parse_page(limit, 0)
        return events_from_selector(
            selectors.match_events(root, current_user(info), since=since, limit=limit))

    @strawberry_django.field(description="Final scores; null until the match is finished.")
    def result(self, root: Match) -> MatchResult | None:
        return result_or_none(root)

    @strawberry_django.field(
        description='The time control as stored: {"preset", "kind", times, '
        '"timeout_policy", "takeover_bot"}; {"preset": "none", "kind": "none"} without one.')
    def time_control(self, root: Match) -> JSON:
        return clock_selectors.time_control_of(root)

    @strawberry_django.field(description="Each seat's clock; empty without a time control.")
    def clocks(self, root: Match) -> list[SeatClock]:
        return [SeatClock.from_row(row) for row in clock_selectors.clocks_of(root)]

    @strawberry_django.field(
        description="The seat a bot holds for the caller since their clock ran out (or an "
        "admin handed it over): reclaimSeat takes it back. Null otherwise.")
    def reclaimable_seat(self, root: Match, info: Info) -> int | None:
        return clock_selectors.reclaimable_seat(root, current_user(info))

    @strawberry_django.field(description="Resignations, timeouts, takeovers... in order.")
    def incidents(self, root: Match) -> list[Incident]:
        return [Incident.from_row(row) for row in clock_selectors.incidents_of(root)]


@strawberry.type(description="Matches, newest first, as the REST list (limit/offset).")
class MatchPage:
    total_count: int
    limit: int
    offset: int
    results: list[MatchType]


@strawberry.type(name="Me", description="The signed-in user.")
class MeType:
    id: strawberry.ID
    username: str
    email: str
    date_joined: datetime
    is_staff: bool

    @classmethod
    def from_user(cls, user) -> MeType:
        return cls(
            id=strawberry.ID(str(user.pk)), username=user.username, email=user.email,
            date_joined=user.date_joined, is_staff=user.is_staff,
        )


@strawberry.type(description="One push of matchUpdates: what changed, as the subscriber may "
                 "see it.")
class MatchUpdate:
    match_id: strawberry.ID
    ply: int
    status: MatchStatusEnum  # type: ignore[valid-type]
    to_act: list[int]
    seats: list[Seat]
    moves: list[LoggedMove] = strawberry.field(
        description="Moves logged since the previous push (redacted for the subscriber "
        "while the match runs)."
    )
    view: JSON | None = strawberry.field(
        description="The subscriber's seat view, or the spectator view."
    )
    clocks: list[SeatClock] = strawberry.field(
        description="Each seat's clock at the moment of the push.")
    incidents: list[Incident] = strawberry.field(
        default_factory=list, description="Every incident so far (resign, timeout...).")
    result: MatchResult | None = strawberry.field(
        description="Final scores, in the push that reports the match finished."
    )
