"""django-oauth-toolkit's scopes, from the service's one list (accounts/scopes.py)."""

from __future__ import annotations

from oauth2_provider.scopes import BaseScopes

from accounts.scopes import SCOPES

#: granted when an app asks for no scope: reading the account, nothing that acts
DEFAULT_SCOPES = ["account:read"]


class ServiceScopes(BaseScopes):
    def get_all_scopes(self):
        return SCOPES

    def get_available_scopes(self, application=None, request=None, *args, **kwargs):
        return list(SCOPES)

    def get_default_scopes(self, application=None, request=None, *args, **kwargs):
        return list(DEFAULT_SCOPES)
