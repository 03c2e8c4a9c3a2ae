"""REST routes of the games app (the game catalogue, matches, moves, replays).

Match ids are taken as strings and parsed by the selectors, so a malformed id answers
404 ``match_not_found`` in the API's error shape rather than Django's HTML 404.
"""

from django.urls import path

from games import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<str:game>/", views.GameDetailView.as_view(), name="game-detail"),
    path("matches/", views.MatchListView.as_view(), name="match-list"),
    path("matches/<str:match_id>/", views.MatchDetailView.as_view(), name="match-detail"),
    path("matches/<str:match_id>/join/", views.JoinMatchView.as_view(), name="match-join"),
    path("matches/<str:match_id>/leave/", views.LeaveMatchView.as_view(), name="match-leave"),
    path("matches/<str:match_id>/start/", views.StartMatchView.as_view(), name="match-start"),
    path("matches/<str:match_id>/abort/", views.AbortMatchView.as_view(), name="match-abort"),
    path("matches/<str:match_id>/resign/", views.ResignView.as_view(), name="match-resign"),
    path("matches/<str:match_id>/reclaim/", views.ReclaimView.as_view(), name="match-reclaim"),
    path(
        "matches/<str:match_id>/legal-moves/",
        views.LegalMovesView.as_view(),
        name="match-legal-moves",
    ),
    path("matches/<str:match_id>/moves/", views.MovesView.as_view(), name="match-moves"),
    path("matches/<str:match_id>/replay/", views.ReplayView.as_view(), name="match-replay"),
    path("matches/<str:match_id>/result/", views.ResultView.as_view(), name="match-result"),
    path("matches/<str:match_id>/events/", views.EventsView.as_view(), name="match-events"),
]
