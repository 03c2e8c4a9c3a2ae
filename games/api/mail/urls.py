"""REST routes of a player's e-mail (under /api/v1/; docs/api.md, "E-mail")."""

from django.urls import path

from games.api.mail import views

urlpatterns = [
    path("mail/", views.MailSettingsView.as_view(), name="mail-settings"),
    path("mail/confirmation/", views.ResendConfirmationView.as_view(),
         name="mail-confirmation"),
    path("mail/test/", views.TestMailView.as_view(), name="mail-test"),
]
