"""REST routes of quick match (under /api/v1/)."""

from django.urls import path

from games.api.quickmatch import views

urlpatterns = [
    path("quick-match/", views.QuickMatchView.as_view(), name="quick-match"),
    path("quick-match/<str:request_id>/", views.QuickMatchDetailView.as_view(),
         name="quick-match-detail"),
]
