"""REST for the game catalogue: every game, and one game's rules, options, bots, move
schema and time controls."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response

from games import catalogue
from games.api.examples import (
    ERROR_EXAMPLES,
    GAME_EXAMPLE,
    GAME_LIST_EXAMPLE,
)
from games.api.matches import serializers as s
from games.api.toolkit.endpoints import error_responses, represent
from infra.api_views import PUBLIC, ApiView
from infra.paging import PAGE_PARAMETERS, PAGE_QUERY, page_of, paged


class GameListView(ApiView):
    query_params = PAGE_QUERY
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="list_games",
        summary="The games this service plays",
        parameters=PAGE_PARAMETERS,
        responses={200: page_of(s.GameSerializer), **error_responses()},
        examples=[GAME_LIST_EXAMPLE],
        tags=["games"],
    )
    def get(self, request):
        return Response(paged(request, catalogue.list_games(),
                              lambda entry: represent(s.GameSerializer, entry)))


class GameDetailView(ApiView):
    required_scopes = {"GET": PUBLIC}

    @extend_schema(
        operation_id="get_game",
        summary="One game: its option schema, player counts and bot kinds",
        responses={200: s.GameSerializer, **error_responses(404)},
        examples=[GAME_EXAMPLE, ERROR_EXAMPLES["unknown_game"]],
        tags=["games"],
    )
    def get(self, request, game: str):
        return Response(s.GameSerializer(catalogue.get_game(game)).data)


# -- the lobby --------------------------------------------------------------------------------
