"""The notifications' tables: each player's preferences where they differ from the
defaults, their browsers' push subscriptions, and the reminders already sent. One writer
per table: ``preferences``, ``push``, ``reminders``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

PUSH, EMAIL = "push", "email"
CHANNELS = (PUSH, EMAIL)

YOUR_TURN = "your_turn"
INVITATION = "invitation"
MATCH_STARTED = "match_started"
MATCH_FINISHED = "match_finished"
REMINDER = "reminder"
CHAT_MESSAGE = "chat_message"
EVENT_TYPES = (YOUR_TURN, INVITATION, MATCH_STARTED, MATCH_FINISHED, REMINDER, CHAT_MESSAGE)


class Preference(models.Model):
    """One player's choice for one channel and event type. A missing row is the default
    (``games.notifications.preferences.DEFAULTS``)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="notification_preferences")
    channel = models.CharField(max_length=16)
    event_type = models.CharField(max_length=32)
    enabled = models.BooleanField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "channel", "event_type"],
                                    name="notification_preference_unique"),
            models.CheckConstraint(condition=Q(channel__in=CHANNELS),
                                   name="notification_preference_channel_known"),
            models.CheckConstraint(condition=Q(event_type__in=EVENT_TYPES),
                                   name="notification_preference_event_known"),
        ]
        verbose_name = _("notification preference")
        verbose_name_plural = _("notification preferences")


class PushSubscription(models.Model):
    """A browser's Web Push subscription (its ``PushSubscription.toJSON()``): the push
    service's URL and the browser's keys the payload is encrypted to. ``language`` is the
    one the pushes are written in (the request's when it was registered)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=120)
    auth = models.CharField(max_length=40)
    language = models.CharField(max_length=8, default="en")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")


class Reminder(models.Model):
    """A reminder sent to a seat before one deadline: the row makes it once per deadline
    and seat, whichever sweep finds it first."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="reminders")
    position = models.PositiveSmallIntegerField()
    deadline = models.DateTimeField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "position", "deadline"],
                                    name="reminder_once_per_deadline"),
        ]
