"""REST routes of ratings (under /api/v1/)."""

from django.urls import path

from games.api.ratings import views

urlpatterns = [
    path("leaderboard/<str:game>/", views.LeaderboardView.as_view(), name="leaderboard"),
    path("users/<str:username>/", views.ProfileView.as_view(), name="user-profile"),
    path("users/<str:username>/ratings/", views.RatingHistoryView.as_view(),
         name="user-rating-history"),
]
