"""Writing the chat: sending a message and deleting one's own (docs/chat.md). Every
refusal is raised before anything is stored; a stored message is pushed to the room's
readers after the commit (games/live/chat_sends.py)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction

from games.chat import links, metrics, notices, rate, rooms, webhook_events
from games.chat.errors import (
    ChatMessageNotFound,
    ChatMessageNotYours,
    ChatRoomNotWritable,
    ChatTextEmpty,
    ChatTextTooLong,
)
from games.chat.invitees import invitee_ids
from games.chat.models import ChatMessage, ChatRoom
from games.chat.moderation.enforcement import refuse_if_sanctioned
from games.chat.mutes import muters_of
from games.chat.selectors import (
    may_write,
    message_row,
    parse_room_kind,
    readable_messages,
    room_of,
)
from games.live import frames
from games.live.chat_sends import send_chat
from games.matches import selectors as match_selectors
from games.matches.errors import InvalidRequest
from games.matches.models import Match
from infra import wire
from infra.numbers import InvalidNumber, parse_whole_number
from infra.text_inputs import refuse_control_characters


def clean_text(text: Any) -> str:
    """The text of a message: a string of one line without control characters
    (infra/text_inputs.py), trimmed, not empty, at most ``CHAT_MAX_LENGTH`` characters."""
    if not isinstance(text, str):
        raise InvalidRequest(details={"field": "text"})
    refuse_control_characters(text, "text")
    text = text.strip()
    if not text:
        raise ChatTextEmpty()
    if len(text) > settings.CHAT_MAX_LENGTH:
        raise ChatTextTooLong(details={"max_length": settings.CHAT_MAX_LENGTH})
    return text


@metrics.counted_sends  # sent by room, refused by reason (games/chat/metrics.py)
def send_message(match_id: Any, kind: Any, user, text: Any) -> dict:
    """Store ``user``'s message in the match's room and push it after the commit: 404
    for an unknown match or room, 400 ``chat_text_empty``/``chat_text_too_long``/
    ``invalid_input``, 403 ``chat_room_not_writable``, 429 ``chat_rate_limited``;
    403 ``chat_timed_out``/``chat_banned`` for a user a moderator sanctioned."""
    refuse_if_sanctioned(user)  # every transport's sending comes here (docs/chat.md)
    kind = parse_room_kind(kind)
    text = clean_text(text)
    match = match_selectors.get_match(match_id)
    room = room_of(match, kind)
    invited = invitee_ids(match)  # once: who may write, and who is pushed the message
    if not may_write(room, match, user, invited):
        raise ChatRoomNotWritable()
    links.refuse_links(kind, text)  # the spectators' rooms only (games/chat/links.py)
    # counted in Redis before the transaction: no transaction waits on Redis, and a
    # refusal is raised before anything is written
    rate.check(user.pk, match.pk, kind)
    with transaction.atomic():
        if room.pk is None:
            room, _ = ChatRoom.objects.get_or_create(match=match, kind=kind)
        message = ChatMessage.objects.create(room=room, author=user, text=text,
                                             ply=match.ply)
        who = push_after_commit(match, room, message, invited)
        readers = rooms.table_readers(who, message.author_id)
        webhook_events.announce(message, readers)  # apps (games/chat/webhook_events.py)
        notices.notify_after_commit(match, room, message, readers)  # push, e-mail
    return message_row(message)


def delete_own_message(match_id: Any, kind: Any, message_id: Any, user) -> dict:
    """Mark ``user``'s own message deleted (shown as deleted from then on; again: no
    change): 404 ``chat_message_not_found``, 403 ``chat_message_not_yours`` (also a
    message of a room the user may no longer read is not theirs to find)."""
    messages = readable_messages(match_id, kind, user)
    try:  # within bigint: a larger id would fail in PostgreSQL, not be missing
        message_pk = parse_whole_number(message_id, "message_id", low=1)
    except InvalidNumber:
        raise ChatMessageNotFound() from None
    with transaction.atomic():
        message = messages.select_for_update(of=("self",)).filter(pk=message_pk).first()
        if message is None:
            raise ChatMessageNotFound()
        if message.author_id != user.pk:
            raise ChatMessageNotYours()
        if not message.deleted_by_author:
            message.deleted_by_author = True
            message.save(update_fields=["deleted_by_author"])
            match = match_selectors.get_match(message.room.match_id)
            push_after_commit(match, message.room, message)
    return message_row(message)


def audience(match: Match, room: ChatRoom, author_id: int | None,
             invited: list[int] | None = None) -> dict:
    """Who may be sent a message of ``room``: the match as the writer read it, its seat
    holders included, and who muted the author (``games.chat.rooms.receives`` reads it
    in every hub). ``invited``: the pending invitees, when the caller read them."""
    return {"room": room.kind, "ended": rooms.is_ended(match.status),
            "readable_by_players": match.players_read_spectator_chat,
            "holders": frames.holders(match),
            # games/chat/invitees.py
            "invitees": invited if invited is not None else invitee_ids(match),
            "muted_by": muters_of(author_id) if author_id is not None else []}


def push_after_commit(match: Match, room: ChatRoom, message: ChatMessage,
                      invited: list[int] | None = None) -> dict:
    """Push the message after the commit; its audience."""
    row = message_row(message)
    text = wire.frame("chat", **row)
    who = audience(match, room, message.author_id, invited)
    # robust: what follows the commit is logged if it fails, never raised into the
    # sender's answer (the message is stored: a refusal would have it sent twice)
    transaction.on_commit(lambda: send_chat(match.pk, text, who, row), robust=True)
    return who
