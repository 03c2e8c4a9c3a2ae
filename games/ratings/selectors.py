"""Reading ratings: leaderboards per game, player profiles, rating histories.

Everything here is public: ratings, counts of finished matches, and the public summary of
a player's recent matches (``games.matches.selectors.match_summary``: no game state).
"""

from __future__ import annotations

from typing import Any

from django.db.models import Count, Exists, F, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

from accounts.bots import is_bot_account
from games.lobby import selectors as lobby_selectors
from games.matches import parsing
from games.matches.models import MatchStatus, Result
from games.matches.seat_players import seats_played_by
from games.matches.setup_checks import engine_for
from games.ratings.models import Rating, RatingChange
from games.users import find_user

RECENT_MATCHES = 10


def rating_row(rating: Rating) -> dict:
    return {
        "game": rating.game, "mu": rating.mu, "sigma": rating.sigma,
        "ordinal": rating.ordinal, "rated_matches": rating.rated_matches,
        "rated_wins": rating.rated_wins, "updated_at": rating.updated_at,
    }


def leaderboard(game: Any, *, limit: Any = None, offset: Any = None) -> dict:
    """``{"game", "count", "limit", "offset", "results": [{"rank", "username", "is_bot",
    ...rating}]}``: active players with at least one rated match, best ordinal
    (mu - 3 sigma) first. Raises UnknownGame (404), InvalidRequest (bad page bounds, 400)."""
    engine_for(game)
    limit, offset = parsing.parse_page(limit, offset)
    # an erased (or deactivated) account keeps its rating, for the history of the matches
    # it played, but is nobody's to rank (games/leaving)
    rows = (Rating.objects.filter(game=game, rated_matches__gt=0, user__is_active=True)
            .select_related("user").order_by("-ordinal", "user_id"))
    page = list(rows[offset : offset + limit])
    return {
        "game": game, "count": rows.count(), "limit": limit, "offset": offset,
        "results": [
            {"rank": offset + index + 1, "username": rating.user.username,
             "is_bot": is_bot_account(rating.user), **rating_row(rating)}
            for index, rating in enumerate(page)
        ],
    }


def _finished_seats(user):
    """The seats ``user`` played in finished matches (also those a bot finished for them:
    games.matches.seat_players), each with the rank that counts: the one ratings gave the
    seat (a timeout ranks last, docs/ratings.md), else, for a match that was not rated,
    the result's."""
    rated_rank = RatingChange.objects.filter(match=OuterRef("match"), user=user)
    result_rank = Result.objects.filter(match=OuterRef("match"), seat=OuterRef("position"))
    return (seats_played_by(user).filter(match__status=MatchStatus.FINISHED)
            .annotate(rank=Coalesce(Subquery(rated_rank.values("rank")[:1]),
                                    Subquery(result_rank.values("rank")[:1]))))


def profile(username: Any, viewer=None) -> dict:
    """``{"username", "is_bot", "date_joined", "games_played", "wins", "games": [{"game",
    "played", "wins"}], "ratings": [...], "recent_matches": [Match]}`` (the matches the
    player sat in, newest first, seats prefetched: callers render their public summary;
    private matches only when ``viewer`` may see them listed).
    ``games_played``/``wins`` count every finished match the player played (rated or not,
    also one a bot finished for them); a win is rank 1 (ties share it) as ratings count it.
    A bot kind's account (``bot:<kind>``) counts the matches its rating counts.
    Raises UserNotFound (404)."""
    user = find_user(username)
    if is_bot_account(user):
        # A bot account plays no seat of its own (bot seats name a kind, not a user): its
        # matches are those its rating counts, one rating change each (issue 22).
        per_game = (RatingChange.objects.filter(user=user).values("game")
                    .annotate(played=Count("id"), wins=Count("id", filter=Q(rank=1)))
                    .order_by("game"))
        played = RatingChange.objects.filter(user=user, match=OuterRef("pk"))
    else:
        per_game = (_finished_seats(user).values(game=F("match__game"))
                    .annotate(played=Count("id"), wins=Count("id", filter=Q(rank=1)))
                    .order_by("game"))
        played = seats_played_by(user).filter(match=OuterRef("pk"))
    games = [{"game": row["game"], "played": row["played"], "wins": row["wins"]}
             for row in per_game]
    recent = (lobby_selectors.list_matches(user=viewer)
              .filter(Exists(played))[:RECENT_MATCHES])
    return {
        "username": user.username,
        "is_bot": is_bot_account(user),
        "date_joined": user.date_joined,
        "games_played": sum(row["played"] for row in games),
        "wins": sum(row["wins"] for row in games),
        "games": games,
        "ratings": [rating_row(rating) for rating in
                    Rating.objects.filter(user=user, rated_matches__gt=0).order_by("game")],
        "recent_matches": list(recent),
    }


def rating_history(username: Any, *, game: Any = None, limit: Any = None,
                   offset: Any = None) -> dict:
    """A player's rating changes, newest first: ``{"username", "count", "limit",
    "offset", "results": [{"match_id", "game", "seat", "rank", "mu_before", ...}]}``.
    Raises UserNotFound (404), UnknownGame (400), InvalidRequest (400)."""
    user = find_user(username)
    changes = RatingChange.objects.filter(user=user)
    if game is not None:
        engine_for(game, unknown_status=400)
        changes = changes.filter(game=game)
    limit, offset = parsing.parse_page(limit, offset)
    changes = changes.order_by("-created_at", "-id")
    return {
        "username": user.username, "count": changes.count(), "limit": limit,
        "offset": offset,
        "results": [
            {"match_id": change.match_id, "game": change.game, "seat": change.seat,
             "rank": change.rank, "mu_before": change.mu_before,
             "sigma_before": change.sigma_before, "mu_after": change.mu_after,
             "sigma_after": change.sigma_after, "created_at": change.created_at}
            for change in changes[offset : offset + limit]
        ],
    }
