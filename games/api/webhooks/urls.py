"""REST routes of an app's webhooks (under /api/v1/; docs/webhooks.md)."""

from django.urls import path

from games.api.webhooks import views

urlpatterns = [
    path("apps/<str:app_id>/webhooks/", views.EndpointsView.as_view(), name="webhooks"),
    path("apps/<str:app_id>/webhooks/<str:endpoint_id>/", views.EndpointView.as_view(),
         name="webhook"),
    path("apps/<str:app_id>/webhooks/<str:endpoint_id>/deliveries/",
         views.DeliveriesView.as_view(), name="webhook-deliveries"),
    path("apps/<str:app_id>/webhooks/<str:endpoint_id>/deliveries/<str:delivery_id>/send-again/",
         views.SendAgainView.as_view(), name="webhook-send-again"),
]
