"""Moderation's errors, one class per stable code (docs/chat.md "Moderation")."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.matches.errors import GameServiceError


class ChatTimedOut(GameServiceError):
    status_code = 403
    default_code = "chat_timed_out"
    default_detail = _("A moderator has timed you out of chat: you may write again after "
                       "the time in details.until.")

    def __init__(self, until: str) -> None:
        super().__init__(details={"until": until})


class ChatBanned(GameServiceError):
    status_code = 403
    default_code = "chat_banned"
    default_detail = _("A moderator has banned you from chat.")


class ChatReportReasonInvalid(GameServiceError):
    default_code = "chat_report_reason_invalid"
    default_detail = _("No such report reason.")

    def __init__(self, reasons: list[str]) -> None:
        super().__init__(details={"field": "reason", "choices": reasons})


class ChatReportNoteTooLong(GameServiceError):
    default_code = "chat_report_note_too_long"
    default_detail = _("This note is too long.")

    def __init__(self, max_length: int) -> None:
        super().__init__(details={"field": "note", "max_length": max_length})


class ChatReportOwnMessage(GameServiceError):
    default_code = "chat_report_own_message"
    default_detail = _("You cannot report your own message.")
