"""An app's webhook endpoints and the log of what was sent to them. One writer:
``games.webhooks.services``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

#: the event types an endpoint may subscribe to (docs/webhooks.md)
YOUR_TURN = "your_turn"
MATCH_STARTED = "match_started"
MATCH_FINISHED = "match_finished"
INVITATION = "invitation"
CHAT_MESSAGE = "chat_message"
EVENT_TYPES = (YOUR_TURN, MATCH_STARTED, MATCH_FINISHED, INVITATION, CHAT_MESSAGE)


class Endpoint(models.Model):
    """A URL of an app that receives its users' events. ``secret`` is the Standard
    Webhooks signing secret (``whsec_`` and base64), shown to the owner once; ``active``
    goes false when deliveries kept failing (``disabled_reason`` says why) or the owner
    switches it off."""

    app = models.ForeignKey(settings.OAUTH2_PROVIDER_APPLICATION_MODEL,
                            on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(_("URL"), max_length=500)
    event_types = models.JSONField(_("event types"), default=list)
    secret = models.CharField(max_length=100)
    active = models.BooleanField(_("active"), default=True)
    disabled_reason = models.CharField(_("disabled because"), max_length=200, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("id",)
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One event sent (or being sent) to one endpoint: the signed message, and what its
    attempts met. ``message_id`` is the ``webhook-id``: the same on every retry and on a
    "send again", so a receiver can drop what it already handled."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    message_id = models.CharField(max_length=40, unique=True)
    event_type = models.CharField(max_length=32)
    payload = models.JSONField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    last_latency_ms = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)
    #: when its ``deliver`` task is due (a retry's back-off, or now when handed over):
    #: a pending row overdue by WEBHOOK_OVERDUE_MARGIN_SECONDS lost its task message, and
    #: the sweep sends it again (games/webhooks/overdue.py); null once finished
    next_attempt_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-id",)
        indexes = [models.Index(fields=["endpoint", "-id"], name="webhook_delivery_log"),
                   # the sweep's read: only rows waiting for a deliver task are in it
                   models.Index(fields=["next_attempt_at"], name="webhook_delivery_due",
                                condition=models.Q(status="pending",
                                                   next_attempt_at__isnull=False))]
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
