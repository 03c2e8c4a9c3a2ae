"""The OAuth 2 side of the OpenAPI document (docs/api.md "Scopes"): the ``oauth2`` scheme
(authorization code with PKCE, its scopes from accounts/scopes.py) and, on each operation,
the scope it needs, read from the view's own declaration (``required_scopes``: the one
the base view checks, infra/api_views.py), so the document cannot drift from the code.

An operation that needs a scope lists ``{"oauth2": [scope]}`` beside the first-party
token and the session (which carry every scope); a public one that a token may still
call (a read shown as the caller's seat sees it) lists ``{"oauth2": []}``; one that
takes no credential at all keeps ``security: []``.
"""

from __future__ import annotations

from accounts.scopes import SCOPES

#: the authorization server's endpoints (django-oauth-toolkit's, accounts/apps_oauth/urls.py)
AUTHORIZE_URL, TOKEN_URL = "/oauth/authorize/", "/oauth/token/"

OAUTH2 = "oauth2"


def oauth2_scheme() -> dict:
    return {
        "type": "oauth2",
        "description": "OAuth 2 for third-party apps: authorization code with PKCE (S256), "
        "no client secret; each operation names the scope it needs.",
        "flows": {"authorizationCode": {
            "authorizationUrl": AUTHORIZE_URL,
            "tokenUrl": TOKEN_URL,
            "refreshUrl": TOKEN_URL,
            "scopes": {name: str(text) for name, text in SCOPES.items()},
        }},
    }


def _declared_scopes(generator) -> dict[tuple[str, str], str | None]:
    """``{(path, method): scope}`` of every endpoint the generator documents whose view
    declares its scopes."""
    found = {}
    for path, _regex, method, callback in generator.endpoints:
        view_class = getattr(callback, "cls", None)
        declared = getattr(view_class, "required_scopes", None)
        if declared is not None and method.upper() in declared:
            found[(path, method.lower())] = declared[method.upper()]
    return found


def add_scopes(result: dict, generator, extra: dict[tuple[str, str], str | None]) -> None:
    """Declare the scheme and each operation's scope (``extra``: operations the
    generator does not see, such as the NDJSON stream)."""
    schemes = result.setdefault("components", {}).setdefault("securitySchemes", {})
    schemes[OAUTH2] = oauth2_scheme()
    declared = {**_declared_scopes(generator), **extra}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if not isinstance(operation, dict) or (path, method) not in declared:
                continue
            security = operation.get("security")
            if not security:  # security: [] takes no credential at all
                continue
            scope = declared[(path, method)]
            requirement = {OAUTH2: [scope] if scope is not None else []}
            if requirement not in security:
                anonymous = {} in security
                security = [entry for entry in security if entry != {}]
                security.append(requirement)
                if anonymous:
                    security.append({})  # still last: a token stays optional
                operation["security"] = security
