"""REST routes of the analysis (under /api/v1/)."""

from django.urls import path

from games.api.analysis import views

urlpatterns = [
    path("matches/<str:match_id>/analysis/", views.AnalysisView.as_view(),
         name="match-analysis"),
]
