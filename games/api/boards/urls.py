"""REST routes of a match's board as a picture (under /api/v1/)."""

from django.urls import path

from games.api.boards import views

urlpatterns = [
    path("matches/<str:match_id>/board.svg", views.BoardSvgView.as_view(),
         name="match-board-svg"),
    path("matches/<str:match_id>/board.png", views.BoardPngView.as_view(),
         name="match-board-png"),
]
