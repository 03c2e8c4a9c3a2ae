"""The pages a mail's links open (/mail/...; games/api/mail/pages.py)."""

from django.urls import path

from games.api.mail import pages

urlpatterns = [
    path("confirm/<str:token>/", pages.confirm_page, name="mail-confirm"),
    path("unsubscribe/<str:token>/", pages.unsubscribe_page, name="mail-unsubscribe"),
]
