"""Muting (docs/chat.md "Mute"): a user mutes another for themselves. The server filters:
a muted author's messages are left out of the muter's lists and are never pushed to the
muter's sockets (``games.chat.services.audience`` names who muted the author), so no
client has to hide them. One writer of ``ChatMute``: this module."""

from __future__ import annotations

from django.db.models import Q

from accounts.models import User
from games.chat.models import ChatMute
from games.matches.errors import InvalidRequest, UserNotFound


def _someone(username) -> User:
    if not isinstance(username, str):
        raise UserNotFound()
    found = User.objects.filter(username=username).first()
    if found is None:
        raise UserNotFound(details={"username": username})
    return found


def mute(user, username) -> str:
    """``user`` mutes ``username`` (again: no change). 404 ``user_not_found``, 400
    ``invalid_request`` for oneself."""
    muted = _someone(username)
    if muted.pk == user.pk:
        raise InvalidRequest(details={"username": "you cannot mute yourself"})
    ChatMute.objects.get_or_create(user=user, muted=muted)
    return muted.username


def unmute(user, username) -> None:
    """``user`` hears ``username`` again (not muted: no change)."""
    ChatMute.objects.filter(user=user, muted=_someone(username)).delete()


def muted_by(user) -> list[str]:
    """The usernames ``user`` muted, in the order they were muted."""
    return [mute["username"] for mute in mutes_of(user)]


def mutes_of(user) -> list[dict]:
    """The users ``user`` muted and when, oldest first: their export's ``chat_mutes``
    (games/leaving/export.py; docs/chat.md "Privacy")."""
    return [{"username": username, "created_at": created_at} for username, created_at in
            ChatMute.objects.filter(user=user).order_by("id")
            .values_list("muted__username", "created_at")]


def forget(user) -> None:
    """An erased account's mutes go, both ways (games/leaving/services.py): whom it muted
    is its own data, and who muted it named a person who no longer writes (a tombstone
    is nobody to mute: its old messages stay readable to everyone)."""
    ChatMute.objects.filter(Q(user=user) | Q(muted=user)).delete()


def muters_of(author_id: int) -> list[int]:
    """Who muted ``author_id``: their messages reach none of them."""
    return list(ChatMute.objects.filter(muted_id=author_id).values_list("user_id", flat=True))
