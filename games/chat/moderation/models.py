"""Reports, sanctions and the moderation log. Written by ``games.chat.moderation.reports``
and ``games.chat.moderation.actions``.

A report is a reader's complaint about one message, with a reason from ``ReportReason``;
a sanction (a time-out until a time, or a ban) keeps a user from sending in any chat room
until it ends or a moderator clears it; the log records every moderator's action with who,
when, why and what, and is never rewritten.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

#: the longest note a reporter may add to the reason (docs/chat.md "Moderation")
NOTE_MAX_LENGTH = 500


class ReportReason(models.TextChoices):
    SPAM = "spam", _("spam or advertising")
    ABUSE = "abuse", _("insults or harassment")
    HATE = "hate", _("hate speech")
    CHEATING = "cheating", _("cheating or coaching a player")
    PERSONAL_DATA = "personal_data", _("someone's personal data")
    OTHER = "other", _("something else (say what in the note)")


class ReportStatus(models.TextChoices):
    OPEN = "open", _("open")
    ACTIONED = "actioned", _("acted on")
    DISMISSED = "dismissed", _("dismissed")


class ChatReport(models.Model):
    message = models.ForeignKey("games.ChatMessage", on_delete=models.CASCADE,
                                related_name="reports")
    # SET_NULL: an erased reporter's report stays in the queue, anonymous
    reporter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                 on_delete=models.SET_NULL, related_name="+")
    reason = models.CharField(max_length=32, choices=ReportReason.choices)
    note = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=ReportStatus.choices,
                              default=ReportStatus.OPEN)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # reporting a message twice is the one report (games.chat.moderation.reports)
            models.UniqueConstraint(fields=["message", "reporter"],
                                    name="chat_report_once_per_reporter"),
            models.CheckConstraint(condition=Q(reason__in=ReportReason.values),
                                   name="chat_report_reason_valid"),
        ]
        indexes = [models.Index(fields=["status", "id"], name="chat_report_queue")]

    def __str__(self) -> str:
        return f"report #{self.pk} of message #{self.message_id}"


class SanctionKind(models.TextChoices):
    TIME_OUT = "time_out", _("time-out")
    BAN = "ban", _("ban")


class ChatSanction(models.Model):
    """``user`` may not send chat messages while this is in force: a time-out until
    ``until``, a ban until cleared. Clearing (an appeal upheld) sets ``cleared_at``."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="chat_sanctions")
    kind = models.CharField(max_length=16, choices=SanctionKind.choices)
    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    cleared_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=(Q(kind="time_out", until__isnull=False)
                           | Q(kind="ban", until__isnull=True)),
                name="chat_sanction_until_for_time_outs_only"),
        ]
        indexes = [models.Index(fields=["user", "cleared_at"], name="chat_sanction_by_user")]

    def __str__(self) -> str:
        return f"{self.kind} of {self.user_id}"


class ActionKind(models.TextChoices):
    HIDE = "hide", _("hid the message")
    TIME_OUT = "time_out", _("timed the author out")
    BAN = "ban", _("banned the author")
    DISMISS = "dismiss", _("dismissed the report")
    CLEAR = "clear", _("cleared a time-out or ban (appeal)")


class ModerationAction(models.Model):
    """One moderator's action, as it happened: read-only everywhere (the runtime role may
    not update or delete a row: database_grants.py)."""

    kind = models.CharField(max_length=16, choices=ActionKind.choices)
    moderator = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                  on_delete=models.SET_NULL, related_name="+")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                               on_delete=models.SET_NULL, related_name="+",
                               help_text="The user acted on (a message's author).")
    report = models.ForeignKey(ChatReport, null=True, on_delete=models.SET_NULL,
                               related_name="actions")
    message = models.ForeignKey("games.ChatMessage", null=True, on_delete=models.SET_NULL,
                                related_name="+")
    sanction = models.ForeignKey(ChatSanction, null=True, on_delete=models.SET_NULL,
                                 related_name="actions")
    #: a time-out's end, when the action set one
    until = models.DateTimeField(null=True, blank=True)
    reason = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=ActionKind.values),
                                   name="moderation_action_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} by {self.moderator_id} at {self.created_at:%Y-%m-%d %H:%M}"
