"""REST routes of leaving (under /api/v1/)."""

from django.urls import path

from games.api.leaving import views

urlpatterns = [
    path("me/export", views.MyDataExportView.as_view(), name="me-export"),
]
