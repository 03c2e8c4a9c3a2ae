"""Who may use the API's admin powers (issue 9, defect 5).

Starting or aborting another user's match and handing a seat to a bot need the Django
model permission ``games.manage_match`` (or a superuser); the admin's replay page needs
``games.view_match``, the permission the admin already asks to show a match at all.
``is_staff`` alone only lets a user sign in to the admin: a staff account with no
permissions used to be an API admin. The "match admin" group (migration
games/0005_match_admin_group) holds these permissions; add users to it in Django admin."""

from __future__ import annotations

MANAGE_MATCH = "games.manage_match"
VIEW_MATCH = "games.view_match"

#: the group created by the migration, with manage_match and view_match (and the admin's
#: view permissions on seats, moves and results)
MATCH_ADMIN_GROUP = "match admin"


def can_manage_matches(user) -> bool:
    """Start, abort or hand seats of any match to bots (not only the caller's own)."""
    return bool(user is not None and getattr(user, "is_authenticated", False)
                and user.has_perm(MANAGE_MATCH))


def can_view_replays(user) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False)
                and user.has_perm(VIEW_MATCH))
