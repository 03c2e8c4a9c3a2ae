"""Ratings per (player, game) and the history of their changes.

One writer: ``games.ratings.services``. A ``RatingChange`` row per rated seat and match
is the proof that a match was rated: its unique (match, user) constraint makes a second
rating of the same match impossible, whatever retries or re-scorings happen.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class Rating(models.Model):
    """A player's current rating in one game (humans, and one account per bot kind)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    game = models.CharField(max_length=32)
    mu = models.FloatField()
    sigma = models.FloatField()
    # mu - 3 sigma: the conservative estimate leaderboards sort by (stored to index it)
    ordinal = models.FloatField(db_index=True)
    rated_matches = models.PositiveIntegerField(default=0)
    rated_wins = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["game", "-ordinal", "user_id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="rating_one_per_user_game"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="rating_sigma_positive"),
        ]
        indexes = [models.Index(fields=["game", "-ordinal"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """How one rated match moved one player's rating (the rating history)."""

    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    game = models.CharField(max_length=32)
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user_id", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"],
                                    name="rating_change_once_per_match_and_user"),
        ]
        indexes = [models.Index(fields=["user", "game", "-created_at"],
                                name="rating_history")]

    def __str__(self) -> str:
        return f"{self.user} in match #{self.match_id}: {self.mu_before:.2f} -> {self.mu_after:.2f}"
