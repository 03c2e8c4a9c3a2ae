"""oauthlib's server narrowed to what the service serves (config/oauth_settings.py's
OAUTH2_SERVER_CLASS): the authorization code with PKCE S256 only, and the refresh token.

django-oauth-toolkit's RFC 9700 gate refuses a ``plain`` challenge only when the code is
issued, after the player has consented; oauthlib itself knows ``plain`` and defaults a
challenge without a method to it. Here ``plain`` (named or by default) is unknown to the
grant, so the request fails before the consent page (``invalid_request``, sent back to the
registered redirect URI). The implicit, password, client-credentials and device grants
are not offered at all, whatever the application's settings say."""

from __future__ import annotations

from oauthlib.oauth2 import Server
from oauthlib.oauth2.rfc6749.grant_types.authorization_code import (
    AuthorizationCodeGrant,
    code_challenge_method_s256,
)


class S256OnlyCodeGrant(AuthorizationCodeGrant):
    _code_challenge_methods = {"S256": code_challenge_method_s256}


class AppsServer(Server):
    def __init__(self, request_validator, *args, **kwargs):
        super().__init__(request_validator, *args, **kwargs)
        self.auth_grant = S256OnlyCodeGrant(request_validator)
        self._response_types = {"code": self.auth_grant}
        self._grant_types = {"authorization_code": self.auth_grant,
                             "refresh_token": self.refresh_grant}
