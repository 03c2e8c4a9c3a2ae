"""Private matches, invitations and rematches. One writer: ``games.lobby.services``.

A match is private (unlisted) when it has a ``PrivateMatch`` row: it shows in no public
list, and only the invited or the holders of its code may take a seat.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class PrivateMatch(models.Model):
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE, primary_key=True,
                                 related_name="private")
    # unguessable (secrets.token_urlsafe); whoever holds it may take a free seat
    invite_code = models.CharField(max_length=32, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"private match #{self.match_id}"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "pending"
    ACCEPTED = "accepted", "accepted"
    DECLINED = "declined", "declined"
    WITHDRAWN = "withdrawn", "withdrawn (the match started, ended or was aborted)"


class Invitation(models.Model):
    """``inviter`` asks ``invitee`` to take a seat (``position``, or any free one)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="invitations")
    inviter = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL,
                                related_name="invitations_sent")
    invitee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                                related_name="invitations")
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=InvitationStatus.choices,
                              default=InvitationStatus.PENDING)
    is_rematch = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "invitee"],
                                    name="invitation_once_per_match_and_user"),
            models.UniqueConstraint(fields=["match", "position"],
                                    condition=Q(position__isnull=False),
                                    name="invitation_one_per_reserved_seat"),
            models.CheckConstraint(
                condition=Q(status__in=[choice.value for choice in InvitationStatus]),
                name="invitation_status_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.invitee} invited to match #{self.match_id} ({self.status})"


class Rematch(models.Model):
    """The one rematch of a finished match (unique: two players proposing at once get
    the same one)."""

    original = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                    primary_key=True, related_name="rematch")
    match = models.OneToOneField("games.Match", on_delete=models.CASCADE,
                                 related_name="rematch_of")
    proposed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                                    on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"rematch of #{self.original_id}: #{self.match_id}"
