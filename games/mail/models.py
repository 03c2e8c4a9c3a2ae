"""A player's e-mail address and the log of the mails the service meant to send.
``games.mail.services`` writes addresses; ``delivery.py`` and ``digest.py`` write mails."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

# the event types the notification fan-out hands over (games.notifications' contract)
from games.notifications.models import (  # noqa: F401 - games/mail's names for them
    CHAT_MESSAGE,
    EVENT_TYPES,
    INVITATION,
    MATCH_FINISHED,
    MATCH_STARTED,
    REMINDER,
    YOUR_TURN,
)


class MailAddress(models.Model):
    """Where a player's mails go. Only a ``verified_at`` address is sent notifications;
    changing the address clears it. ``language`` is the mails' language (the request's
    when the address was set); ``daily_digest`` gathers the day's events into one mail.
    Which events are mailed is the player's notification preferences' (channel
    ``email``: games/notifications/preferences.py), which a mail's unsubscribe link sets."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="mail_address")
    address = models.EmailField(_("e-mail address"), max_length=254)
    verified_at = models.DateTimeField(_("verified"), null=True, blank=True)
    confirmation_sent_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(max_length=8, default="en")
    daily_digest = models.BooleanField(_("daily digest"), default=False)

    class Meta:
        verbose_name = _("e-mail address")
        verbose_name_plural = _("e-mail addresses")

    def __str__(self) -> str:
        return self.address


class MailStatus(models.TextChoices):
    PENDING = "pending"  # to be sent (or its send failed and is being retried)
    SENT = "sent"
    SKIPPED = "skipped"  # not sent: ``reason`` says why (looked, moved on, unverified...)
    IN_DIGEST = "in_digest"  # waits for the user's daily digest
    DIGESTED = "digested"  # listed in a digest that was sent
    FAILED = "failed"  # the mail server refused it for good


class Mail(models.Model):
    """One event's mail to one user. ``key`` makes it unique per user: ``your_turn:<match>:
    <ply>`` is at most one "your turn" per match and turn, however often the task runs."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="mails")
    key = models.CharField(max_length=120)
    event_type = models.CharField(max_length=20)
    data = models.JSONField(default=dict)
    status = models.CharField(max_length=12, choices=MailStatus.choices,
                              default=MailStatus.PENDING)
    reason = models.CharField(max_length=40, blank=True)
    #: when a pending mail is due: the end of a "your turn"'s wait, or the next try after
    #: the mail server failed (the sweep, games.mail.tasks.send_due, sends what is due)
    due_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.CharField(max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("id",)
        constraints = [models.UniqueConstraint("user", "key", name="mail_one_per_user_key")]
        indexes = [models.Index(fields=("status", "user"), name="mail_status_user"),
                   models.Index(fields=("status", "due_at"), name="mail_status_due")]

    def __str__(self) -> str:
        return f"{self.key} to {self.user_id}"
