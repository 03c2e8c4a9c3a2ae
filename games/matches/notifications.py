"""Telling live subscribers that a match changed.

The message names the match, its ply and status only: it carries nothing hidden, so each
subscriber re-reads what it may see through ``games.matches.selectors``. Publishing is best effort:
an unreachable channel layer is logged and never fails the move that triggered it.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from games.matches import play_announcements
from infra.channel_messages import send_to_group_soon
from infra.observability import request_id

logger = logging.getLogger(__name__)

#: the ``type`` of the channel-layer message; consumers implement a ``match_update`` handler
MATCH_UPDATE_TYPE = play_announcements.MATCH_UPDATE_TYPE


def match_group_name(match_id: int) -> str:
    """The channel-layer group every subscriber of ``match_id`` joins."""
    return f"match-{match_id}"


def publish_match_update(match_id: int, ply: int, status: str | None = None) -> bool:
    """Send ``{"type": "match.update", "match_id", "ply", "status"}`` to the match's group.

    Returns False (and logs) when the channel layer is missing or unreachable."""
    try:
        layer = get_channel_layer()
        if layer is None:
            return False
        async_to_sync(layer.group_send)(
            match_group_name(match_id),
            {"type": MATCH_UPDATE_TYPE, "match_id": match_id, "ply": ply, "status": status},
        )
        return True
    except Exception:  # noqa: BLE001 - a notification must never break a committed move
        logger.warning("could not publish update of match %s at ply %s", match_id, ply,
                       exc_info=True)
        return False


def publish_match_update_soon(match_id: int, ply: int, status: str | None = None) -> None:
    """Like ``publish_match_update`` but returns at once, to the subscribers and to the
    play hubs (unless ``announced_by_caller``), from the background loop
    (infra/channel_messages.py); failures are logged. The message names the request that
    made the change (``request_id``, None outside one): the play sockets' pushes carry it."""
    message = {"type": MATCH_UPDATE_TYPE, "match_id": match_id, "ply": ply, "status": status,
               "request_id": request_id.current()}
    send_to_group_soon(match_group_name(match_id), message)
    if not play_announcements.is_announced_by_caller(match_id):
        play_announcements.publish_soon(match_id, message)
