"""Stored feed events. One writer: ``games.feed.services``.

Events are kept in PostgreSQL, not only pushed: a client that reconnects with the id of
the last event it saw gets every later one, in order. ``dedupe_key`` makes announcing the
same fact twice (a retried task, a re-scoring) a no-op.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FeedEvent(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="feed_events")
    kind = models.CharField(max_length=32)
    payload = models.JSONField(default=dict)
    dedupe_key = models.CharField(max_length=120)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "dedupe_key"], name="feed_event_once"),
        ]
        indexes = [models.Index(fields=["user", "id"], name="feed_event_replay")]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} for {self.user_id}"
