"""REST routes of notifications (under /api/v1/; docs/notifications.md)."""

from django.urls import path

from games.api.notifications import views

urlpatterns = [
    path("me/notification-preferences/", views.PreferencesView.as_view(),
         name="notification-preferences"),
]
