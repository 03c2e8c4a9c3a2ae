"""REST endpoints of ratings: leaderboards, player profiles, rating histories."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.response import Response

from games.api.ratings import serializers as rs
from games.api.toolkit.endpoints import error_responses
from games.matches import selectors as match_selectors
from games.ratings import selectors
from infra.api_views import PUBLIC, ApiView
from infra.paging import PAGE_PARAMETERS, envelope, page_of

USERNAME = OpenApiParameter("username", str, OpenApiParameter.PATH)


def as_page(request, body: dict) -> dict:
    """A selector's page (count, limit, offset, results) in the API's one list envelope."""
    return envelope(request, count=body["count"], limit=body["limit"], offset=body["offset"],
                    results=body["results"])



class LeaderboardView(ApiView):
    query_params = ("limit", "offset")
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        summary="Players of a game by rating (openskill ordinal, mu - 3 sigma)",
        operation_id="get_leaderboard",
        parameters=[OpenApiParameter("game", str, OpenApiParameter.PATH), *PAGE_PARAMETERS],
        responses={200: page_of(rs.LeaderboardRowSerializer), **error_responses(400, 404)},
        tags=["ratings"],
    )
    def get(self, request, game: str):
        params = request.query_params
        return Response(as_page(request, selectors.leaderboard(
            game, limit=params.get("limit"), offset=params.get("offset"))))


class ProfileView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        summary="A player: ratings, games played, wins, recent matches", operation_id="get_profile",
        parameters=[USERNAME],
        responses={200: rs.ProfileSerializer, **error_responses(404)},
        tags=["ratings"],
    )
    def get(self, request, username: str):
        body = selectors.profile(username, request.user)
        body["recent_matches"] = [match_selectors.match_summary(match, request.user)
                                  for match in body["recent_matches"]]
        return Response(body)


class RatingHistoryView(ApiView):
    query_params = ("game", "limit", "offset")
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        summary="A player's rating changes, newest first", operation_id="list_rating_changes",
        parameters=[USERNAME, OpenApiParameter("game", str), *PAGE_PARAMETERS],
        responses={200: page_of(rs.RatingChangeSerializer), **error_responses(400, 404)},
        tags=["ratings"],
    )
    def get(self, request, username: str):
        params = request.query_params
        return Response(as_page(request, selectors.rating_history(
            username, game=params.get("game") or None, limit=params.get("limit"),
            offset=params.get("offset"))))
