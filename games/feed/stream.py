"""Delivering a user's feed live: the events after a given id (the replay), then each new
event as it is stored, until the client goes. Used by ``GET /api/v1/stream/`` (NDJSON)
and GraphQL ``myEvents`` alike.

Subscribe first, read second: the stream joins the user's channel-layer group before it
reads the backlog, so an event stored in between is both in the backlog and announced,
never lost (it is sent once: events are read by id). The channel-layer message only
says "something new for user N"; the events themselves always come from the database,
filtered by the stream's own user, so no message can show one user another's events.

Given the connection's ``AccessCheck``, the stream also ends when the user's access is
revoked: it joins the user's access group and stops on the announcement, and re-checks
the token before it yields (accounts/revocation.py). Any other message, including the
channel layer's "Redis is back" (infra/channel_layer.py), only means "read again".
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from accounts.revocation import ACCESS_REVOKED_TYPE, AccessCheck, access_group
from games.feed.selectors import events_after
from games.feed.services import feed_group_name

#: with nothing to say, the stream re-reads the database (a lost push is caught) and, over
#: HTTP, sends an empty line so proxies and clients know it is alive
IDLE_SECONDS = 20.0

_events_after = database_sync_to_async(events_after)


async def follow(user, last_event_id: int, *, access: AccessCheck | None = None,
                 idle_seconds: float = IDLE_SECONDS) -> AsyncIterator[dict | None]:
    """Yield ``user``'s events after ``last_event_id``, oldest first, until ``access`` (if
    given) is revoked; ``None`` after each idle period without one (a keep-alive)."""
    layer = get_channel_layer()
    channel = await layer.new_channel() if layer is not None else None
    groups = [feed_group_name(user.pk)] + ([access_group(user.pk)] if access else [])
    if channel is not None:
        for group in groups:
            await layer.group_add(group, channel)
    try:
        while True:
            events = await _events_after(user, last_event_id)
            for event in events:
                if access is not None and not await access.still_valid():
                    return
                last_event_id = event["id"]
                yield event
            if events:
                continue  # a long backlog comes in pages: read on before waiting
            try:
                if channel is None:
                    await asyncio.sleep(idle_seconds)
                    raise TimeoutError
                message = await asyncio.wait_for(layer.receive(channel), timeout=idle_seconds)
            except TimeoutError:
                if access is not None and not await access.still_valid():
                    return
                yield None
                continue
            if message.get("type") == ACCESS_REVOKED_TYPE and access.concerns(message):
                access.revoke()  # (another token of the user's revoked: go on)
                return
    finally:
        if channel is not None:
            for group in groups:
                await layer.group_discard(group, channel)
