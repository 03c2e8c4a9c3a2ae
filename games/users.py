"""Finding a player by the name in a URL (profiles, records, ratings histories)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from games.matches import errors


def find_user(username: Any):
    """The active user called ``username``. Raises UserNotFound (404)."""
    User = get_user_model()
    if not isinstance(username, str) or not 0 < len(username) <= 150:
        raise errors.UserNotFound()
    try:
        return User.objects.get(username=username, is_active=True)
    except User.DoesNotExist:
        raise errors.UserNotFound(details={"username": username[:40]}) from None
