"""REST routes of the games app (the game catalogue, matches, moves, replays).

Match ids are taken as strings and parsed by the selectors, so a malformed id answers
404 ``match_not_found`` in the API's error shape rather than Django's HTML 404.
"""

from django.urls import path

from games.api import asyncapi, boards, catalogue, matches, moves

urlpatterns = [
    # the play socket's AsyncAPI document, beside the OpenAPI schema (docs/asyncapi.yaml)
    path("asyncapi.yaml", asyncapi.AsyncApiYamlView.as_view(), name="asyncapi-yaml"),
    path("asyncapi.json", asyncapi.AsyncApiJsonView.as_view(), name="asyncapi-json"),
    path("games/", catalogue.GameListView.as_view(), name="game-list"),
    path("games/<str:game>/", catalogue.GameDetailView.as_view(), name="game-detail"),
    path("matches/", matches.MatchListView.as_view(), name="match-list"),
    path("matches/<str:match_id>/", matches.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<str:match_id>/join/", matches.JoinMatchView.as_view(), name="match-join"),
    path("matches/<str:match_id>/leave/", matches.LeaveMatchView.as_view(), name="match-leave"),
    path("matches/<str:match_id>/start/", matches.StartMatchView.as_view(), name="match-start"),
    path("matches/<str:match_id>/abort/", matches.AbortMatchView.as_view(), name="match-abort"),
    path("matches/<str:match_id>/resign/", matches.ResignView.as_view(), name="match-resign"),
    path("matches/<str:match_id>/reclaim/", matches.ReclaimView.as_view(), name="match-reclaim"),
    path(
        "matches/<str:match_id>/legal-moves/",
        moves.LegalMovesView.as_view(),
        name="match-legal-moves",
    ),
    path("matches/<str:match_id>/moves/", moves.MovesView.as_view(), name="match-moves"),
    path("matches/<str:match_id>/replay/", moves.ReplayView.as_view(), name="match-replay"),
    path("matches/<str:match_id>/result/", moves.ResultView.as_view(), name="match-result"),
    path("matches/<str:match_id>/events/", moves.EventsView.as_view(), name="match-events"),
    path("matches/<str:match_id>/board.svg", boards.BoardSvgView.as_view(), name="match-board-svg"),
    path("matches/<str:match_id>/board.png", boards.BoardPngView.as_view(), name="match-board-png"),
]
