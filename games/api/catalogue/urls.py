"""REST routes of the game catalogue (under /api/v1/)."""

from django.urls import path

from games.api.catalogue import views

urlpatterns = [
    path("games/", views.GameListView.as_view(), name="game-list"),
    path("games/<str:game>/", views.GameDetailView.as_view(), name="game-detail"),
]
