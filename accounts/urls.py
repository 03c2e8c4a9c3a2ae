"""Accounts routes, mounted under /api/v1/."""

from django.urls import path

from accounts.views import MeView, RegisterView, TokenView

urlpatterns = [
    path("auth/register/", RegisterView.as_view(), name="auth-register"),
    path("auth/token/", TokenView.as_view(), name="auth-token"),
    path("me", MeView.as_view(), name="me"),
]
