"""REST routes of matches (under /api/v1/): the list, one match and its actions
(views.py), its legal moves, moves, replays, result and events (moves.py)."""

from django.urls import path

from games.api.matches import moves, views

urlpatterns = [
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
        moves.LegalMovesView.as_view(),
        name="match-legal-moves",
    ),
    path("matches/<str:match_id>/moves/", moves.MovesView.as_view(), name="match-moves"),
    path("matches/<str:match_id>/replay/", moves.ReplayView.as_view(), name="match-replay"),
    path("matches/<str:match_id>/result/", moves.ResultView.as_view(), name="match-result"),
    path("matches/<str:match_id>/events/", moves.EventsView.as_view(), name="match-events"),
]
