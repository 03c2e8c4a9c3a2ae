"""GraphQL output types of the games domain.

Every game fact is rendered from ``games.matches.selectors``: a type here never reads a snapshot,
never calls the engine and never strips hidden information by itself. ``Match`` is a
strawberry-django type over the model; its game fields (view, log, legal moves, seats,
seed) are resolved through the selectors with the caller as the reader, so GraphQL shows
exactly what REST shows to the same person.
"""

from __future__ import annotations

from datetime import datetime

import strawberry
import strawberry_django
from django.urls import reverse
from strawberry.scalars import JSON
from strawberry.types import Info

from games.graphql.clock_types import Incident, SeatClock
from games.graphql.context import current_user
from games.graphql.enums import MatchStatusEnum, SeatKind
from games.graphql.lobby_types import LobbyInfo
from games.graphql.play_types import (
    LegalMoves,
    LoggedMove,
    MatchEvents,
    MatchResult,
    events_from_selector,
    result_or_none,
)
from games.lobby import selectors as lobby_selectors
from games.matches import clock_selectors, parsing, selectors
from games.matches.models import Match


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
    username: str | None = strawberry.field(
        description="The person who plays the seat; on a seat a bot took over from them, "
        "still that person (see takenOverFrom). Null on a bot's own seat.")
    user: str | None = strawberry.field(
        description="The same as username.",
        deprecation_reason="Use username: one name for a player (docs/api.md, Changes).")
    bot_kind: str | None
    taken_over_from: str | None = strawberry.field(
        description="On a bot seat: the person it was taken from (a timeout, an admin's "
        "hand-over, a resignation or a forfeit). Null otherwise.")

    @classmethod
    def from_row(cls, row: dict) -> Seat:
        return cls(
            position=row["position"],
            kind=SeatKind(row["kind"]),
            username=row["username"],
            user=row["username"],
            bot_kind=row["bot_kind"],
            taken_over_from=row["taken_over_from"],
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
    players_read_spectator_chat: bool = strawberry_django.field(
        description="Whether the players read the spectators' chat room while the match "
        "runs (the creator's choice: on by default for a listed match, off for a private "
        "one).")

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

    @strawberry_django.field(
        description="The path of the board's picture after ply `ply` (default the latest) "
        "as the caller may see it: GET it with the same token (REST board.svg; board.png "
        "beside it). An invalid_ply error for a ply outside 0..ply."
    )
    def board_svg_url(self, root: Match, ply: int | None = None) -> str:
        path = reverse("match-board-svg", args=[root.pk])
        if ply is None:
            return path
        return f"{path}?ply={parsing.parse_ply(ply, upper=root.ply)}"

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
        f"{parsing.MAX_PAGE_SIZE}, as REST pages): the next page starts at `since` plus "
        "the moves returned. Redacted for the caller while the match runs, whole after "
        "the end."
    )
    def log(self, root: Match, info: Info, since: int = 0,
            limit: int = parsing.MAX_PAGE_SIZE) -> list[LoggedMove]:
        since_ply = parsing.parse_ply(since, upper=root.ply, name="since")
        limit, _offset = parsing.parse_page(limit, 0)  # REST's bounds and errors
        entries = selectors.move_log(root, current_user(info), since=since_ply, limit=limit)
        return [LoggedMove.from_entry(entry) for entry in entries]

    @strawberry_django.field(
        description="Moves since a ply (at most `limit`, 1 to "
        f"{parsing.MAX_PAGE_SIZE}) and the caller's view."
    )
    def events(self, root: Match, info: Info, since: int = 0,
               limit: int = parsing.MAX_PAGE_SIZE) -> MatchEvents:
        limit, _offset = parsing.parse_page(limit, 0)
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

    @strawberry_django.field(description="Is it private, its invite code (for its creator "
                             "and players), its rematch: REST's lobby object.")
    def lobby(self, root: Match, info: Info) -> LobbyInfo:
        return LobbyInfo.from_row(lobby_selectors.private_info(root, current_user(info)))


@strawberry.type(description="Matches, newest first, as the REST list (limit/offset).")
class MatchPage:
    count: int = strawberry.field(description="Matches in the whole list (REST's count).")
    total_count: int = strawberry.field(deprecation_reason="Use `count` (REST's name).")
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
