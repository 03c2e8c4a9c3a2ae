"""Settings of the OAuth 2 authorization server for third-party apps (accounts/apps_oauth/,
docs/apps.md), imported at the end of config/settings.py.

django-oauth-toolkit with every RFC 9700 (OAuth 2.0 Security BCP) gate on: PKCE required
and S256 only, no implicit and no password grant, tokens stored as their SHA-256 checksum
only, refresh tokens rotated with reuse detection (a reused one revokes its family)."""

from config.env import env_bool, env_int

#: plain-http redirect URIs and origins: local development (DEBUG), the test suite, a
#: native app's loopback callback (RFC 8252) behind an operator who says so; production:
#: https only
HTTP_REDIRECTS = env_bool("OAUTH_HTTP_REDIRECTS", env_bool("DEBUG", False))

# DOT's application, swapped for ours (name, owner, homepage, origins, tier, suspension)
OAUTH2_PROVIDER_APPLICATION_MODEL = "apps_oauth.App"
# DOT's own (named, as migrations that point at them resolve the swappable settings)
OAUTH2_PROVIDER_ACCESS_TOKEN_MODEL = "oauth2_provider.AccessToken"
OAUTH2_PROVIDER_REFRESH_TOKEN_MODEL = "oauth2_provider.RefreshToken"
OAUTH2_PROVIDER_ID_TOKEN_MODEL = "oauth2_provider.IDToken"
OAUTH2_PROVIDER_GRANT_MODEL = "oauth2_provider.Grant"
OAUTH2_PROVIDER_DEVICE_GRANT_MODEL = "oauth2_provider.DeviceGrant"

OAUTH2_PROVIDER = {
    "APPLICATION_ADMIN_CLASS": "accounts.apps_oauth.admin.AppAdmin",
    "OAUTH2_SERVER_CLASS": "accounts.apps_oauth.server.AppsServer",
    "SCOPES_BACKEND_CLASS": "accounts.apps_oauth.scopes_backend.ServiceScopes",
    "ACCESS_TOKEN_GENERATOR": "accounts.apps_oauth.tokens.app_access_token",
    "REFRESH_TOKEN_GENERATOR": "accounts.apps_oauth.tokens.app_refresh_token",
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_REFRESH_TOKEN_SECONDS", 60 * 24 * 3600),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": env_int("OAUTH_CODE_SECONDS", 60),
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "PKCE_REQUIRED": True,
    "REQUEST_APPROVAL_PROMPT": "force",  # the consent page every time
    "ALLOW_URI_WILDCARDS": False,
    # https only in production (RFC 9700 2.1)
    "ALLOWED_REDIRECT_URI_SCHEMES": ["http", "https"] if HTTP_REDIRECTS else ["https"],
    # the authorization response names its issuer (RFC 9207): a client that talks to more
    # than one server cannot be sent another server's code
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,
    # where http is allowed on purpose, DOT's check stays a warning (check --deploy, which
    # production passes, has http off)
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_SCHEME": not HTTP_REDIRECTS,
    # an app's allowed origins, validated by DOT with this list: the same policy (a page
    # under development is served over http on localhost, like its redirect URI)
    "ALLOWED_SCHEMES": ["http", "https"] if HTTP_REDIRECTS else ["https"],
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,
    "COMPLIANT_BCP_RFC9700_REFRESH_TOKEN": True,
    "COMPLIANT_BCP_RFC9700_REDIRECT_URI_MATCHING": True,
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": ["none"],
}

# The consent page's sign-in: our own login page (accounts/apps_oauth/templates/registration)
LOGIN_URL = "oauth-login"

# How long a web process trusts its copy of the apps' origins before asking the cache
# whether any app changed (accounts/apps_oauth/origins.py): a change made in another
# process is served within this time; in the same process at once.
APP_ORIGINS_RECHECK_SECONDS = float(env_int("APP_ORIGINS_RECHECK_MS", 1000)) / 1000
