"""A reader reports a message (docs/chat.md "Moderation"): anyone who may read its room
(games.chat.rooms decides, as for listing it), with a reason from
``ReportReason`` and an optional note. Reporting the same message again is the same
report: answered again, unchanged (idempotent), so a double click files one."""

from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction

from games.chat.errors import ChatMessageNotFound, ChatRoomNotReadable
from games.chat.models import ChatMessage, ChatRoom
from games.chat.moderation import metrics
from games.chat.moderation.errors import (
    ChatReportNoteTooLong,
    ChatReportOwnMessage,
    ChatReportReasonInvalid,
)
from games.chat.moderation.models import NOTE_MAX_LENGTH, ChatReport, ReportReason
from games.chat.selectors import may_read, parse_room_kind, room_of
from games.matches import selectors as match_selectors
from games.matches.errors import InvalidRequest
from infra.numbers import InvalidNumber, parse_whole_number
from infra.text_inputs import refuse_control_characters


def clean_reason(reason: Any) -> str:
    if reason not in ReportReason.values:
        raise ChatReportReasonInvalid(reasons=list(ReportReason.values))
    return reason


def clean_note(note: Any) -> str:
    """Free text over several lines (line breaks allowed, no other control character),
    trimmed, at most ``NOTE_MAX_LENGTH`` characters; none is ``""``."""
    if note is None:
        return ""
    if not isinstance(note, str):
        raise InvalidRequest(details={"field": "note"})
    refuse_control_characters(note, "note", multiline=("note",))
    note = note.strip()
    if len(note) > NOTE_MAX_LENGTH:
        raise ChatReportNoteTooLong(max_length=NOTE_MAX_LENGTH)
    return note


def _readable_room(match_id: Any, kind: Any, user) -> ChatRoom:
    """The room, if ``user`` may read it (as games.chat.selectors.readable_messages
    decides), muted authors' messages included: muting someone first must not stop
    reporting what they wrote."""
    kind = parse_room_kind(kind)
    match = match_selectors.get_match(match_id)
    room = room_of(match, kind)
    if not may_read(room, match, user):
        raise ChatRoomNotReadable()
    return room


def report_row(report: ChatReport) -> dict:
    """A report as its reporter is shown it (never the moderators' decision's details)."""
    return {"id": report.pk, "message": report.message_id, "reason": report.reason,
            "note": report.note, "status": report.status,
            "created_at": report.created_at.isoformat()}


def report_message(match_id: Any, kind: Any, message_id: Any, user, reason: Any,
                   note: Any = None) -> tuple[dict, bool]:
    """File ``user``'s report of a message they may read: ``(the report, whether it is
    new)``. 404 ``match_not_found``/``chat_room_not_found``/``chat_message_not_found``,
    403 ``chat_room_not_readable``, 400 ``chat_report_reason_invalid``,
    ``chat_report_note_too_long``, ``invalid_input``, ``chat_report_own_message``."""
    room = _readable_room(match_id, kind, user)
    reason = clean_reason(reason)
    note = clean_note(note)
    try:  # within bigint: a larger id would fail in PostgreSQL, not be missing
        message_pk = parse_whole_number(message_id, "message_id", low=1)
    except InvalidNumber:
        raise ChatMessageNotFound() from None
    message = ChatMessage.objects.filter(room_id=room.pk, pk=message_pk).first() \
        if room.pk is not None else None
    if message is None:
        raise ChatMessageNotFound()
    if message.author_id == user.pk:
        raise ChatReportOwnMessage()
    existing = ChatReport.objects.filter(message=message, reporter=user).first()
    if existing is not None:
        return report_row(existing), False
    try:
        with transaction.atomic():
            report = ChatReport.objects.create(message=message, reporter=user,
                                               reason=reason, note=note)
    except IntegrityError:  # the same report, filed at the same moment by a double click
        return report_row(ChatReport.objects.get(message=message, reporter=user)), False
    transaction.on_commit(lambda: metrics.REPORTS.labels(reason).inc())
    return report_row(report), True
