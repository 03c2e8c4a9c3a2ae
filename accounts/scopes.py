"""The scopes a credential can grant: the one list every check and every page reads.

Third-party apps (OAuth 2) and personal access tokens ask for some of these; the consent
page and the token pages show their descriptions; REST views, GraphQL fields and play
socket operations check them (``scopes_of``). Few and meaningful, as lichess's are: a
scope names what a player would recognise giving away, not an endpoint.

First-party credentials (today's ``Authorization: Token`` key from ``POST
/api/v1/auth/token/``, and a signed-in session) are the player acting themselves and grant
every scope.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

#: name -> what it lets an app do, as the consent page says it
SCOPES: dict[str, str] = {
    "account:read": _("See your account: your name, your games and your invitations."),
    "match:play": _("Play moves, resign and reclaim a seat in your games."),
    "match:write": _("Create, join and leave games, send and answer invitations, "
                     "and use quick match for you."),
    "chat:write": _("Send chat messages in your name."),
    "account:write": _("Manage your account: export or erase it, and manage its tokens."),
}

ALL_SCOPES: frozenset[str] = frozenset(SCOPES)


def parse(scope: str | None) -> frozenset[str]:
    """The known scopes of a space-separated scope string (unknown names dropped)."""
    return frozenset(scope.split()) & ALL_SCOPES if scope else frozenset()


def scopes_of(auth) -> frozenset[str]:
    """The scopes a request's credential (DRF's ``request.auth``) grants.

    - an OAuth 2 access token or a personal access token (both are django-oauth-toolkit
      ``AccessToken`` rows, with a ``scope`` string): its scopes;
    - a first-party DRF ``Token`` (``Authorization: Token``): every scope;
    - ``SESSION``, the marker for a signed-in session (DRF's session authentication leaves
      ``request.auth`` None; ``scopes_of_request`` passes this instead): every scope;
    - None (no credential): none.
    """
    if auth is None:
        return frozenset()
    if auth is SESSION:
        return ALL_SCOPES
    scope = getattr(auth, "scope", None)
    if scope is not None:  # an AccessToken (app or personal): exactly what it was given
        return parse(scope)
    return ALL_SCOPES  # a first-party Token


#: ``request.auth`` of a session-authenticated request is None, like an anonymous one's;
#: this stands for "a session" where a credential is asked for
SESSION = object()


def scopes_of_request(request) -> frozenset[str]:
    """``scopes_of`` for a request: a signed-in user without a credential object is a
    session (every scope); anonymous has none."""
    auth = getattr(request, "auth", None)
    if auth is None and getattr(getattr(request, "user", None), "is_authenticated", False):
        return ALL_SCOPES
    return scopes_of(auth)
