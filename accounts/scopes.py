"""The scopes a credential may carry (docs/api.md "Scopes"): few and meaningful. An OAuth
access token or a personal access token carries some of them; a first-party token
(``/auth/token/``) and a browser session carry every one. Each REST view, GraphQL field
and play-socket operation declares the one it needs (docs/api.md "Scopes")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from infra.credential_scopes import limited_scopes

SCOPES = {
    "account:read": _("See your account, your matches, ratings and feed"),
    "match:play": _("Play moves, resign and take back your seat in your matches"),
    "match:write": _("Create, join and leave matches; send and answer invitations; quick match"),
    "chat:write": _("Send chat messages in your matches"),
    "account:write": _("Manage your account: tokens, export and erasure"),
}
ALL_SCOPES = frozenset(SCOPES)


def scopes_of(user, auth) -> frozenset[str]:
    """The scopes a request's credential grants, given DRF's ``request.user`` and
    ``request.auth``: an OAuth access token or personal access token (anything with a
    ``scope`` string) its own; a first-party token or a session (``auth`` None with a
    signed-in user) every scope; no credential (an anonymous caller) none."""
    if user is None or not getattr(user, "is_authenticated", False):
        return frozenset()
    limited = limited_scopes(auth)
    return ALL_SCOPES if limited is None else limited & ALL_SCOPES
