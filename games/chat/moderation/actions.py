"""What a moderator does (docs/chat.md "Moderation"), each in one transaction with its
entry in the moderation log (who, when, why, what): hide a reported message, time its
author out or ban them, dismiss the report, clear a user's time-outs and bans (an appeal
upheld). The admin (games/admin/chat_moderation.py) calls these; nothing else writes a
sanction or the log."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from games.chat.models import ChatMessage
from games.chat.moderation import metrics
from games.chat.moderation.models import (
    ActionKind,
    ChatReport,
    ChatSanction,
    ModerationAction,
    ReportStatus,
    SanctionKind,
)
from games.chat.moderation.selectors import sanctions_in_force
from games.chat.services import push_after_commit
from games.matches import selectors as match_selectors

#: the time-outs a moderator chooses from (the admin's form offers these)
TIME_OUTS = {"10m": timedelta(minutes=10), "1h": timedelta(hours=1),
             "24h": timedelta(hours=24), "7d": timedelta(days=7), "30d": timedelta(days=30)}


class ModerationRefused(Exception):
    """An action that cannot be done as asked (shown to the moderator; nothing written)."""


def _why(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise ModerationRefused(_("Say why: the log records it."))
    return reason


def _log(kind: str, moderator, reason: str, **what) -> ModerationAction:
    entry = ModerationAction.objects.create(kind=kind, moderator=moderator, reason=reason,
                                            **what)
    transaction.on_commit(lambda: metrics.ACTIONS.labels(kind).inc())
    return entry


def _locked(report: ChatReport) -> ChatReport:
    return (ChatReport.objects.select_for_update(of=("self",))
            .select_related("message__room").get(pk=report.pk))


def _resolve(report: ChatReport, status: str) -> None:
    if report.status == ReportStatus.OPEN:
        report.status, report.resolved_at = status, timezone.now()
        report.save(update_fields=["status", "resolved_at"])


def hide_message(report: ChatReport, moderator, reason: str) -> ModerationAction:
    """Hide the reported message: its readers see it, from then on, as hidden without its
    text, and its live readers are pushed it so; every open report of it is acted on."""
    reason = _why(reason)
    with transaction.atomic():
        report = _locked(report)
        message = (ChatMessage.objects.select_for_update(of=("self",))
                   .select_related("room", "author").get(pk=report.message_id))
        if not message.hidden_by_moderator:
            message.hidden_by_moderator = True
            message.save(update_fields=["hidden_by_moderator"])
            # the hidden message to its room's live readers, as a deletion is pushed
            push_after_commit(match_selectors.get_match(message.room.match_id),
                              message.room, message)
        for other in ChatReport.objects.filter(message=message, status=ReportStatus.OPEN):
            _resolve(other, ReportStatus.ACTIONED)
        return _log(ActionKind.HIDE, moderator, reason, report=report, message=message,
                    target_id=message.author_id)


def time_out(report: ChatReport, moderator, length: str, reason: str) -> ModerationAction:
    """Keep the reported message's author from sending for ``length`` (a key of
    ``TIME_OUTS``), from now."""
    if length not in TIME_OUTS:
        raise ModerationRefused(_("Choose one of the offered lengths of time-out."))
    return _sanction(report, moderator, SanctionKind.TIME_OUT,
                     timezone.now() + TIME_OUTS[length], _why(reason))


def ban(report: ChatReport, moderator, reason: str) -> ModerationAction:
    """Keep the reported message's author from sending until a moderator clears it."""
    return _sanction(report, moderator, SanctionKind.BAN, None, _why(reason))


def _sanction(report, moderator, kind: str, until, reason: str) -> ModerationAction:
    with transaction.atomic():
        report = _locked(report)
        author_id = report.message.author_id
        if author_id is None:
            raise ModerationRefused(_("The author's account no longer exists."))
        sanction = ChatSanction.objects.create(user_id=author_id, kind=kind, until=until,
                                               reason=reason)
        _resolve(report, ReportStatus.ACTIONED)
        return _log(kind, moderator, reason, report=report, message_id=report.message_id,
                    target_id=author_id, sanction=sanction, until=until)


def dismiss(report: ChatReport, moderator, reason: str) -> ModerationAction:
    """Close the report with nothing done to the message or its author."""
    reason = _why(reason)
    with transaction.atomic():
        report = _locked(report)
        if report.status != ReportStatus.OPEN:
            raise ModerationRefused(_("This report is no longer open."))
        _resolve(report, ReportStatus.DISMISSED)
        return _log(ActionKind.DISMISS, moderator, reason, report=report,
                    message_id=report.message_id, target_id=report.message.author_id)


def clear_sanctions(user_id: int | None, moderator, reason: str,
                    report: ChatReport | None = None) -> list[ModerationAction]:
    """End every time-out and ban of ``user_id`` in force now (an appeal upheld): they
    may send again at once. One log entry per sanction cleared."""
    reason = _why(reason)
    with transaction.atomic():
        sanctions = list(sanctions_in_force(user_id).select_for_update()) \
            if user_id is not None else []
        if not sanctions:
            raise ModerationRefused(_("This user has no time-out or ban in force."))
        now, entries = timezone.now(), []
        for sanction in sanctions:
            sanction.cleared_at = now
            sanction.save(update_fields=["cleared_at"])
            entries.append(_log(ActionKind.CLEAR, moderator, reason, report=report,
                                target_id=user_id, sanction=sanction,
                                message_id=report.message_id if report else None))
        return entries
