"""The shapes of the chat report endpoint (docs/chat.md "Moderation")."""

from __future__ import annotations

from rest_framework import serializers

from games.chat.moderation.models import NOTE_MAX_LENGTH, ReportReason, ReportStatus


class ReportChatMessageRequestSerializer(serializers.Serializer):
    # both checked by games.chat.moderation.reports, which answers the moderation's own
    # codes (chat_report_reason_invalid, chat_report_note_too_long)
    reason = serializers.CharField(help_text="Why: one of " + ", ".join(
        f"`{value}` ({label})" for value, label in ReportReason.choices) + ".")
    note = serializers.CharField(required=False, allow_blank=True, allow_null=True,
                                 trim_whitespace=False,
                                 help_text=f"Optional, at most {NOTE_MAX_LENGTH} "
                                 "characters; line breaks allowed.")


class ChatReportSerializer(serializers.Serializer):
    """A report as its reporter is shown it."""

    id = serializers.IntegerField()
    message = serializers.IntegerField(help_text="The reported message's id.")
    reason = serializers.ChoiceField(choices=ReportReason.values)
    note = serializers.CharField(allow_blank=True)
    # a string, not an enum: a second "status" enum would rename the match's StatusEnum
    # in the generated clients (drf-spectacular names enums by their field)
    status = serializers.CharField(help_text="One of " + ", ".join(
        f"`{value}`" for value in ReportStatus.values) + ": open until a moderator acts on "
        "it or dismisses it.")
    created_at = serializers.DateTimeField()
