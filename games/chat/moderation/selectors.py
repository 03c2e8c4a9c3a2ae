"""Reading moderation: a user's sanction in force, a reported message in its context, the
admin's queue of reports (open ones first)."""

from __future__ import annotations

from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from games.chat.models import ChatMessage
from games.chat.moderation.models import ChatReport, ChatSanction, ReportStatus, SanctionKind

#: how many messages of the room a moderator sees on each side of a reported one
CONTEXT_SIZE = 10


def sanctions_in_force(user_id: int) -> QuerySet[ChatSanction]:
    """``user_id``'s bans and time-outs not cleared and not over, bans first, then the
    time-out ending last."""
    return (ChatSanction.objects
            .filter(user_id=user_id, cleared_at__isnull=True)
            .filter(Q(kind=SanctionKind.BAN) | Q(until__gt=timezone.now()))
            .order_by(Case(When(kind=SanctionKind.BAN, then=Value(0)), default=Value(1),
                           output_field=IntegerField()), "-until"))


def sanction_in_force(user_id: int | None) -> ChatSanction | None:
    if user_id is None:
        return None
    return sanctions_in_force(user_id).first()


def context_of(message: ChatMessage, size: int = CONTEXT_SIZE) -> list[ChatMessage]:
    """The ``size`` messages before ``message`` in its room, itself, and the ``size``
    after, oldest first (deleted and hidden ones too: the moderator sees what was said)."""
    room = ChatMessage.objects.filter(room_id=message.room_id).select_related("author")
    before = list(room.filter(id__lt=message.pk).order_by("-id")[:size])
    after = list(room.filter(id__gt=message.pk).order_by("id")[:size])
    return [*reversed(before), message, *after]


def report_queue() -> QuerySet[ChatReport]:
    """Every report, open ones first (oldest first: the longest waiting), then the rest,
    newest first."""
    is_open = Case(When(status=ReportStatus.OPEN, then=Value(0)), default=Value(1),
                   output_field=IntegerField())
    open_age = Case(When(status=ReportStatus.OPEN, then="id"), default=Value(None),
                    output_field=IntegerField())
    return (ChatReport.objects.select_related("message__author", "message__room", "reporter")
            .annotate(queue_open=is_open, queue_open_age=open_age)
            .order_by("queue_open", "queue_open_age", "-id"))
