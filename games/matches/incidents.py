"""``Incident``: the append-only log of what happened to a seat besides its moves.

Moves are the engine's business; resignations, timeouts, takeovers by a bot, reclaims,
forfeits and time added by an admin are the service's. They live here, next to the move
log and as immutable as it, with the ply at which they happened, so that the seed, the
moves and the incidents together reproduce a match's stored result (``games.matches.replay``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class IncidentKind(models.TextChoices):
    RESIGN = "resign", "resigned"
    TIMEOUT = "timeout", "ran out of time"
    TAKEOVER = "takeover", "seat taken over by a bot"
    RECLAIM = "reclaim", "seat reclaimed by its player"
    FORFEIT = "forfeit", "forfeited (ranks last)"
    TIME_ADDED = "time_added", "time added"


#: the kinds after which a seat ranks last, whatever its score
FORFEIT_KINDS = (IncidentKind.RESIGN, IncidentKind.FORFEIT)


class AppendOnlyIncidentError(Exception):
    """Raised when code tries to change or delete a logged incident."""


class IncidentQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyIncidentError("incidents are append-only")

    def delete(self):
        raise AppendOnlyIncidentError("incidents are append-only: delete the match instead")


class Incident(models.Model):
    # DO_NOTHING in Python, ON DELETE CASCADE in the database (migration 0004), as for
    # the move log: deleting a match is the only way its incidents go.
    match = models.ForeignKey("games.Match", on_delete=models.DO_NOTHING,
                              related_name="incidents")
    #: moves played before it: it happened between move ``ply - 1`` and move ``ply``
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=16, choices=IncidentKind.choices)
    #: the player the seat belonged to (who resigned, timed out, was taken over, reclaims)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.PROTECT, related_name="+")
    #: who did it when it was not the player: an admin (None for the clock itself)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.PROTECT, related_name="+")
    bot_kind = models.CharField(max_length=32, blank=True, default="")
    seconds = models.IntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = IncidentQuerySet.as_manager()

    class Meta:
        ordering = ["match_id", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=[choice.value for choice in IncidentKind]),
                name="incident_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"match #{self.match_id} ply {self.ply} seat {self.seat}: {self.kind}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyIncidentError("incidents are append-only")
        kwargs["force_insert"] = True
        return super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyIncidentError("incidents are append-only: delete the match instead")
