"""Quick-match requests. One writer: ``games.quickmatch.services``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class RequestStatus(models.TextChoices):
    WAITING = "waiting", "waiting"
    MATCHED = "matched", "matched"
    CANCELLED = "cancelled", "cancelled"
    EXPIRED = "expired", "expired"


class QuickMatchRequest(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="quick_match_requests")
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    # normalized by the engine: requests pair only with the very same options
    options = models.JSONField(default=dict)
    time_control = models.JSONField(null=True, blank=True)
    rating_min = models.FloatField(null=True, blank=True)
    rating_max = models.FloatField(null=True, blank=True)
    # the requester's rating (mu) in the game when asking: what others' ranges compare
    rating = models.FloatField()
    status = models.CharField(max_length=16, choices=RequestStatus.choices,
                              default=RequestStatus.WAITING)
    # CASCADE: a matched request names its match (a check below), so it goes with it
    match = models.ForeignKey("games.Match", null=True, blank=True, on_delete=models.CASCADE,
                              related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            # one waiting request per person: nobody can be paired twice at once
            models.UniqueConstraint(fields=["user"], condition=Q(status="waiting"),
                                    name="quick_match_one_waiting_per_user"),
            # a matched request names its match, and only a matched one does
            models.CheckConstraint(
                condition=Q(status="matched", match__isnull=False) | ~Q(status="matched"),
                name="quick_match_matched_has_match"),
            models.CheckConstraint(
                condition=Q(status__in=[choice.value for choice in RequestStatus]),
                name="quick_match_status_valid"),
        ]
        indexes = [models.Index(fields=["status", "game", "players", "created_at"],
                                name="quick_match_waiting")]

    def __str__(self) -> str:
        return f"quick match {self.game}/{self.players} for {self.user_id} ({self.status})"
