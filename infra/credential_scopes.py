"""The one rule of scopes every transport applies (REST's base view, GraphQL's fields, the
play socket's operations): a credential that carries a ``scope`` string (an OAuth access
token, a personal access token) may do only what those scopes allow; a first-party token
and a session may do everything their user may; an anonymous caller is not limited here
(what it may do is each operation's own affair: a write answers 401, a read shows the
spectator's view).

A refusal is 403 ``insufficient_scope`` naming the scope, in the API's error shape, the
same code and details in GraphQL's ``extensions`` and in the socket's error frame. The
vocabulary of scopes is accounts/scopes.py's; this module knows only the rule, as the
platform layer below accounts.
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from infra.api_errors import ApiError


class InsufficientScope(ApiError):
    status_code = 403
    default_code = "insufficient_scope"
    default_detail = _("This credential lacks the scope this operation needs.")

    def __init__(self, scope: str) -> None:
        super().__init__(
            gettext("This credential lacks the scope %(scope)s: ask the player for it "
                    "when they sign in.") % {"scope": scope},
            details={"scope": scope})


def limited_scopes(auth) -> frozenset[str] | None:
    """The scopes ``auth`` is limited to, or None when it is not limited (a first-party
    token, a session, no credential)."""
    scope = getattr(auth, "scope", None)
    if isinstance(scope, str):
        return frozenset(scope.split())
    return None


def lacks(user, auth, needed: str | None) -> bool:
    """Whether this caller's credential is refused an operation needing ``needed`` (None:
    the operation needs no scope)."""
    if needed is None or user is None or not getattr(user, "is_authenticated", False):
        return False
    limited = limited_scopes(auth)
    return limited is not None and needed not in limited


def require(user, auth, needed: str | None) -> None:
    """Raise ``InsufficientScope`` if this caller's credential lacks ``needed``."""
    if lacks(user, auth, needed):
        raise InsufficientScope(needed)
