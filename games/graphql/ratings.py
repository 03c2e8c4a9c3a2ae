"""GraphQL fields of ratings: ``leaderboard(game)``, ``player(username)`` (the profile,
with its rating history), over the same selectors as REST."""

from __future__ import annotations

from datetime import datetime

import strawberry
from strawberry.types import Info

from games.graphql.context import current_user
from games.graphql.types import MatchType
from games.matches import parsing
from games.ratings import selectors


@strawberry.type(description="A player's openskill rating in one game.")
class GameRating:
    game: str
    mu: float
    sigma: float
    ordinal: float = strawberry.field(description="mu - 3 sigma: what leaderboards sort by.")
    rated_matches: int
    rated_wins: int
    updated_at: datetime


@strawberry.type
class LeaderboardEntry:
    rank: int
    username: str
    is_bot: bool
    rating: GameRating


@strawberry.type
class Leaderboard:
    game: str
    count: int = strawberry.field(description="Players in the whole list (REST's count).")
    total_count: int = strawberry.field(deprecation_reason="Use `count` (REST's name).")
    limit: int
    offset: int
    results: list[LeaderboardEntry]


@strawberry.type(description="How one rated match moved a player's rating.")
class RatingChange:
    match_id: strawberry.ID
    game: str
    seat: int
    rank: int
    mu_before: float
    sigma_before: float
    mu_after: float
    sigma_after: float
    created_at: datetime


@strawberry.type
class GameTally:
    game: str
    played: int
    wins: int


def _rating(row: dict) -> GameRating:
    return GameRating(**{name: row[name] for name in (
        "game", "mu", "sigma", "ordinal", "rated_matches", "rated_wins", "updated_at")})


@strawberry.type(description="A player's public profile.")
class Player:
    username: str
    is_bot: bool
    date_joined: datetime
    games_played: int = strawberry.field(
        description="Finished matches the player played, rated or not (also those a bot "
                    "finished for them after a timeout).")
    wins: int = strawberry.field(
        description="Finished matches at rank 1 as ratings count it (ties share it; a "
                    "timeout, resignation or forfeit is a loss).")
    games: list[GameTally]
    ratings: list[GameRating]
    recent_matches: list[MatchType]

    @strawberry.field(description="Rating changes, newest first (at most 100 a page).")
    def rating_history(self, game: str | None = None, limit: int = 20,
                       offset: int = 0) -> list[RatingChange]:
        body = selectors.rating_history(self.username, game=game, limit=limit, offset=offset)
        return [RatingChange(**{**row, "match_id": strawberry.ID(str(row["match_id"]))})
                for row in body["results"]]


@strawberry.type
class RatingQueries:
    @strawberry.field(description="Players of a game by rating, best first (REST: GET "
                      "/api/v1/leaderboard/{game}/).")
    def leaderboard(self, game: str, limit: int = parsing.DEFAULT_PAGE_SIZE,
                    offset: int = 0) -> Leaderboard:
        body = selectors.leaderboard(game, limit=limit, offset=offset)
        return Leaderboard(
            game=body["game"], count=body["count"], total_count=body["count"],
            limit=body["limit"],
            offset=body["offset"],
            results=[LeaderboardEntry(rank=row["rank"], username=row["username"],
                                      is_bot=row["is_bot"], rating=_rating(row))
                     for row in body["results"]],
        )

    @strawberry.field(description="A player's profile (REST: GET /api/v1/users/{username}/).")
    def player(self, info: Info, username: str) -> Player:
        body = selectors.profile(username, current_user(info))
        return Player(
            username=body["username"], is_bot=body["is_bot"], date_joined=body["date_joined"],
            games_played=body["games_played"], wins=body["wins"],
            games=[GameTally(**row) for row in body["games"]],
            ratings=[_rating(row) for row in body["ratings"]],
            recent_matches=body["recent_matches"],
        )
