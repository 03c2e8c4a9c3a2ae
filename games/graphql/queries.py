"""Queries: the catalogue, matches as the caller may see them, replays, the caller.

Thin resolvers over ``games.matches.selectors``: a service error raised here reaches the client
with REST's code in ``extensions.code`` (see ``games.graphql.errors.ServiceErrorCodes``).
"""

from __future__ import annotations

from typing import Annotated

import strawberry
import strawberry_django
from strawberry.types import Info

from games import catalogue
from games.graphql.context import authenticated_user, current_user
from games.graphql.enums import MatchStatusEnum
from games.graphql.play_types import Replay
from games.graphql.types import Game, MatchPage, MatchType, MeType
from games.lobby import selectors as lobby_selectors
from games.mail import looks
from games.matches import parsing, selectors

# the same page bounds as REST's GET /matches/
MAX_PAGE_SIZE = parsing.MAX_PAGE_SIZE
DEFAULT_PAGE_SIZE = parsing.DEFAULT_PAGE_SIZE


@strawberry.type
class Query:
    @strawberry_django.field(description="The catalogue: every game with its option schema.")
    def games(self) -> list[Game]:
        return [Game.from_entry(entry) for entry in catalogue.list_games()]

    @strawberry_django.field(description="One game of the catalogue (error unknown_game).")
    def game(self, game: str) -> Game:
        return Game.from_entry(catalogue.get_game(game))

    @strawberry_django.field(
        description="Matches newest first, filtered and paginated as GET /api/v1/matches/ "
        f"(limit {DEFAULT_PAGE_SIZE} by default, at most {MAX_PAGE_SIZE})."
    )
    def matches(
        self,
        info: Info,
        game: str | None = None,
        status: MatchStatusEnum | None = None,  # type: ignore[valid-type]
        mine: bool = False,
        open: Annotated[  # noqa: A002 - REST's name (docs/api.md, one vocabulary)
            bool | None,
            strawberry.argument(
                description="true: open matches with a free seat; false: the others."
            ),
        ] = None,
        open_seats: Annotated[
            bool | None,
            strawberry.argument(
                description="The old name of `open`.",
                deprecation_reason="Use `open` (REST's name for this filter).",
            ),
        ] = None,
        my_turn: Annotated[
            bool | None,
            strawberry.argument(
                description="true: active matches where your seat owes a decision now "
                "(see toAct); false: the others."
            ),
        ] = None,
        limit: int = DEFAULT_PAGE_SIZE,
        offset: int = 0,
    ) -> MatchPage:
        limit, offset = parsing.parse_page(limit, offset)  # REST's bounds and errors
        matches = lobby_selectors.list_matches(
            user=current_user(info),
            game=game,
            status=status.value if status is not None else None,
            mine=mine,
            open_seats=open if open is not None else open_seats,
            my_turn=my_turn,
        )
        count = matches.count()
        return MatchPage(
            count=count,
            total_count=count,
            limit=limit,
            offset=offset,
            results=list(matches[offset : offset + limit]),
        )

    @strawberry_django.field(description="One match with the caller's view.")
    def match(self, info: Info, id: strawberry.ID) -> MatchType:
        match = selectors.get_match(id)
        user = authenticated_user(info)
        looks.saw_seated(match, user)  # a seated player looked: "your turn" by mail waits
        return match

    @strawberry_django.field(
        description="The state after `ply` moves (default: the latest) as the caller may "
        "see it, with the move that led there (everything, with the full state and every "
        "seat's view, once the match has ended)."
    )
    def replay(self, info: Info, match_id: strawberry.ID, ply: int | None = None) -> Replay:
        match = selectors.get_match(match_id)
        body = selectors.replay_view(match, current_user(info), ply)
        return Replay.from_selector(match.pk, body)

    @strawberry_django.field(description="The signed-in user, null when anonymous.")
    def me(self, info: Info) -> MeType | None:
        user = authenticated_user(info)
        return MeType.from_user(user) if user is not None else None
