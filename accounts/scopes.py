"""The scopes a credential can grant: the one list every check and every page reads
(docs/apps.md, docs/api.md "Scopes").

Third-party apps (OAuth 2) and personal access tokens ask for some of these; the consent
page and the token pages show their descriptions; REST views, GraphQL fields and play
socket operations declare the one they need and check it (infra/credential_scopes.py, the
rule, below accounts). Few and meaningful, as lichess's are: a scope names what a player
would recognise giving away, not an endpoint.

First-party credentials (the ``Authorization: Token`` key of ``POST /api/v1/auth/token/``,
and a signed-in session) are the player acting themselves and grant every scope.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from infra.credential_scopes import limited_scopes

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


def scopes_of(user, auth) -> frozenset[str]:
    """The scopes a request's credential grants, given DRF's ``request.user`` and
    ``request.auth`` (a socket's: its user and the credential of its ``hello``): an OAuth
    access token or personal access token (a django-oauth-toolkit ``AccessToken``, with a
    ``scope`` string) its own known ones; a first-party token, or a session (``auth`` None
    with a signed-in user), every scope; an anonymous caller none."""
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    limited = limited_scopes(auth)
    return ALL_SCOPES if limited is None else limited & ALL_SCOPES
