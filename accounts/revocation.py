"""Ending a user's open connections when their access is revoked.

A websocket or a stream authenticates once, when it opens. Revoking the token
(``DELETE /api/v1/auth/token/``, GraphQL ``revokeToken``, the admin), deactivating the user
or changing their password (which revokes the token) must also end what is already open,
before it sends anything more. ``accounts/revocation_triggers.py`` finds those changes
wherever they come from and calls ``announce_access_revoked``; this module is what a
long-lived connection uses to hear of them. Two parts:

1. **The announcement.** After the commit that revoked access, ``{"type": "access.revoked",
   "user_id"}`` goes to the channel-layer group ``access_group(user_id)``; the revoking
   request waits up to ``ANNOUNCE_WAIT_SECONDS`` for Redis to take it, so whatever that
   user's connections are told after the request returns is queued behind it. Every
   long-lived connection of the user joins the group and ends on the message.
2. **The re-check.** A message is lost while Redis is down, so each connection also asks
   the database whether its token still stands (``AccessCheck.still_valid``) before it
   sends anything private, whenever its last check is older than
   ``settings.ACCESS_RECHECK_SECONDS``.

The guarantee this gives is in docs/security.md ("Revocation reaches open connections").

In a channels consumer (games/graphql/websocket.py does exactly this)::

    from accounts.revocation import (ACCESS_REVOKED_CLOSE_CODE, ACCESS_REVOKED_TYPE,
                                     AccessCheck, access_group)

    # once the socket's user is known from its token:
    self.access = AccessCheck(token_key, user.pk)
    await self.channel_layer.group_add(access_group(user.pk), self.channel_name)

    # the group's message, type "access.revoked" (a consumer's handler: access_revoked):
    async def access_revoked(self, message):
        if not self.access.concerns(message):
            return  # another token of the same user was revoked
        self.access.revoke()
        await self.close(code=ACCESS_REVOKED_CLOSE_CODE)

    # before each private message:
    if not await self.access.still_valid():
        await self.close(code=ACCESS_REVOKED_CLOSE_CODE)
        return

    # on disconnect:
    await self.channel_layer.group_discard(access_group(user.pk), self.channel_name)

**One token, not the whole user.** Revoking one app's or one personal token
(accounts/apps_oauth/revocation_triggers.py) announces with ``tokens``: the SHA-256
checksums of the revoked keys (what the database keeps of them). A connection ends only if
its own key is among them (``concerns``); the user's other connections, opened with other
tokens, stay open. An announcement without ``tokens`` (the first-party token, a
deactivation, a password change, an erasure) ends every connection of the user.

A consumer on our channel layer also gets ``{"type": "layer.resumed"}`` after a Redis
outage (infra/channel_layer.py): an ``access.revoked`` may have been lost then, and the
re-check is what covers it.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import transaction
from rest_framework.exceptions import AuthenticationFailed

from accounts.apps_oauth.credentials import authenticate_key
from infra import pubsub
from infra.channel_messages import send_to_group_soon

logger = logging.getLogger(__name__)

#: the ``type`` of the group's message (a channels consumer's handler: ``access_revoked``)
ACCESS_REVOKED_TYPE = "access.revoked"
#: the websocket close code of a connection whose access was revoked (4403 Forbidden,
#: the code graphql-transport-ws closes a refused token with)
ACCESS_REVOKED_CLOSE_CODE = 4403
#: how long a revoking request waits for Redis to take the announcement
ANNOUNCE_WAIT_SECONDS = 1.0


def access_group(user_id: int) -> str:
    """The channel-layer group every long-lived connection of ``user_id`` joins."""
    return f"access-{user_id}"


def announce_access_revoked(user_id: int, tokens: Iterable[str] | None = None) -> None:
    """Tell ``user_id``'s open connections, once the current transaction commits (at once
    outside one), that their access was revoked: all of them, or (``tokens``: checksums,
    ``key_checksum``) only those opened with one of these keys. Never raises; a lost
    message is caught by the connections' re-check."""
    checksums = None if tokens is None else sorted(set(tokens))
    if checksums is None:
        transaction.on_commit(lambda: _announce(user_id), robust=True)
    else:
        transaction.on_commit(lambda: _announce(user_id, checksums), robust=True)


def key_checksum(key: str) -> str:
    """How an announcement names a key: its SHA-256, as the token tables keep it."""
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def concerns(message: dict, key: str | None) -> bool:
    """Whether an ``access.revoked`` message ends a connection opened with ``key``."""
    checksums = message.get("tokens")
    if checksums is None:
        return True  # the user's access as a whole
    return key is not None and key_checksum(key) in checksums


def _announce(user_id: int, checksums: list[str] | None = None) -> None:
    """To the channel-layer group (GraphQL sockets, the feed stream) and on the Pub/Sub
    channel every play hub listens on (games/play/hub.py), waiting a bounded time for
    Redis to take both: a push sent after the revoking request returns comes behind."""
    message = {"type": ACCESS_REVOKED_TYPE, "user_id": user_id}
    if checksums is not None:
        message["tokens"] = checksums
    futures = [future for future in (send_to_group_soon(access_group(user_id), message),
                                     pubsub.publish_soon(pubsub.ACCESS_REVOKED_CHANNEL,
                                                         message))
               if future is not None]
    deadline = time.monotonic() + ANNOUNCE_WAIT_SECONDS
    for future in futures:
        try:
            future.result(timeout=max(0.0, deadline - time.monotonic()))
        except Exception:  # noqa: BLE001 - logged by the sender; the re-check remains
            logger.warning("access of user %s revoked; open connections will find out by "
                           "their re-check", user_id)
            return


class AccessCheck:
    """Whether one connection's token still stands: asked of the database at most once
    per ``settings.ACCESS_RECHECK_SECONDS``, and never again once found revoked."""

    def __init__(self, token_key: str, user_id: int) -> None:
        self.user_id = user_id
        self._key = token_key
        self._checked_at = time.monotonic()  # the caller has just authenticated with it
        self._revoked = False

    def revoke(self) -> None:
        """The connection heard the announcement: nothing more is sent."""
        self._revoked = True

    @property
    def revoked(self) -> bool:
        return self._revoked

    def concerns(self, message: dict) -> bool:
        """Whether an ``access.revoked`` message is about this connection's access."""
        return message.get("user_id") == self.user_id and concerns(message, self._key)

    async def still_valid(self) -> bool:
        if self._revoked:
            return False
        if time.monotonic() - self._checked_at < settings.ACCESS_RECHECK_SECONDS:
            return True
        if not await _token_stands(self._key, self.user_id):
            self._revoked = True
            return False
        self._checked_at = time.monotonic()
        return True


@database_sync_to_async
def _token_stands(key: str, user_id: int) -> bool:
    """The token exists and belongs to ``user_id``, who is active (and, an app's token,
    unexpired with its app active): REST's own check (accounts/apps_oauth/credentials.py,
    accounts/token_auth.py). A database that cannot answer counts as no: the connection
    could not read anything private to send anyway."""
    try:
        user, _token = authenticate_key(key)
    except AuthenticationFailed:
        return False
    except Exception:  # noqa: BLE001 - fail closed; the client reconnects
        logger.warning("access re-check failed; ending the connection", exc_info=True)
        return False
    return user.pk == user_id
