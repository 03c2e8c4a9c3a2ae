"""DRF's ``Authorization: Bearer <token>``: an app's OAuth 2 access token or a personal
access token (credentials.py checks it). Beside today's ``Authorization: Token`` for
first-party keys (accounts/token_auth.py), which stays as it is."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from accounts.apps_oauth.credentials import authenticate_key


class BearerAuthentication(BaseAuthentication):
    keyword = "Bearer"

    def authenticate(self, request):
        auth = get_authorization_header(request).split()
        if not auth or auth[0].lower() != self.keyword.lower().encode():
            return None
        if len(auth) != 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid bearer header: give exactly one token."))
        try:
            key = auth[1].decode()
        except UnicodeError as exc:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from exc
        return authenticate_key(key)

    def authenticate_header(self, request):
        return 'Bearer realm="api"'
