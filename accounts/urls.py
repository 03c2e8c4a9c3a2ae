"""Accounts routes, mounted under /api/v1/."""

from django.urls import path

from accounts.apps_oauth.api import (
    ConnectedAppsView,
    ConnectedAppView,
    OwnedAppsView,
    OwnedAppView,
    PersonalTokensView,
    PersonalTokenView,
)
from accounts.views import MeView, RegisterView, TokenView

urlpatterns = [
    path("auth/register/", RegisterView.as_view(), name="auth-register"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me", MeView.as_view(), name="me"),
    # issue 38: personal access tokens, connected apps, an owner's apps (docs/apps.md)
    path("account/tokens/", PersonalTokensView.as_view(), name="personal-tokens"),
    path("account/tokens/<str:token_id>/", PersonalTokenView.as_view(),
         name="personal-token"),
    path("account/apps/", ConnectedAppsView.as_view(), name="connected-apps"),
    path("account/apps/<str:app_id>/", ConnectedAppView.as_view(), name="connected-app"),
    path("apps/", OwnedAppsView.as_view(), name="owned-apps"),
    path("apps/<str:app_id>/", OwnedAppView.as_view(), name="owned-app"),
]
