"""REST routes of notifications (under /api/v1/; docs/notifications.md)."""

from django.urls import path

from games.api.notifications import push_views, views, waiting_views

urlpatterns = [
    path("me/notification-preferences/", views.PreferencesView.as_view(),
         name="notification-preferences"),
    path("push/key/", push_views.PushKeyView.as_view(), name="push-key"),
    path("me/push-subscriptions/", push_views.PushSubscriptionsView.as_view(),
         name="push-subscriptions"),
    path("me/push-subscriptions/<str:subscription_id>/",
         push_views.PushSubscriptionView.as_view(), name="push-subscription"),
    path("me/waiting-games/", waiting_views.WaitingGamesView.as_view(), name="waiting-games"),
]
