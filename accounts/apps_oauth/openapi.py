"""How the OpenAPI document names ``Authorization: Bearer`` (drf-spectacular reads this
extension once it is imported: AppsOAuthConfig.ready). The OAuth 2 flows and each
operation's scopes are declared with the scope checks."""

from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class BearerScheme(OpenApiAuthenticationExtension):
    target_class = "accounts.apps_oauth.bearer_auth.BearerAuthentication"
    name = "bearerAuth"

    def get_security_definition(self, auto_schema):
        return {"type": "http", "scheme": "bearer",
                "description": "An app's OAuth 2 access token (`hqa_...`) or a personal "
                               "access token (`hqp_...`): docs/apps.md."}
