"""Persistence of matches: the match, its seats, the append-only move log, the results.

The log (``Move``) is the truth; ``Match.state`` is a cached snapshot of the engine state
after ``Match.ply`` moves. Every write goes through ``games.matches.services`` (moves and
the rest of a match's life), ``games.matches.scoring`` (results) or
``games.matches.seat_changes`` (seats handed to bots and back, clocks, incidents): nothing
here changes a status or appends a move on its own.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import Q


class MatchStatus(models.TextChoices):
    OPEN = "open", "open (waiting for players)"
    ACTIVE = "active", "active"
    SCORING = "scoring", "scoring"
    FINISHED = "finished", "finished"
    ABORTED = "aborted", "aborted"


#: statuses after which everything (seed, full log, every hand) may be shown
ENDED_STATUSES = (MatchStatus.FINISHED, MatchStatus.ABORTED)


class Match(models.Model):
    game = models.CharField(max_length=32, db_index=True)
    options = models.JSONField(default=dict, blank=True)
    players = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.OPEN, db_index=True
    )
    # Hidden until the match ends; only its SHA-256 commitment is public before that.
    seed = models.CharField(max_length=128)
    seed_commitment = models.CharField(max_length=64)
    ply = models.PositiveIntegerField(default=0)
    # Cache of engine.to_json(state) after ``ply`` moves; the move log is the truth.
    state = models.JSONField(null=True, blank=True)
    # engine.to_act(state) while active, [] otherwise: written with the snapshot, read by
    # the match lists and their my_turn filter (no snapshot parsed per row).
    to_act = ArrayField(models.PositiveSmallIntegerField(), default=list, blank=True)
    rules_version = models.CharField(max_length=32, blank=True, default="")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="created_matches",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    abort_reason = models.CharField(max_length=200, blank=True, default="")
    # Clocks (games/matches/clock_sync.py, docs/clocks.md): the normalized time control
    # ({} = none), one clock per seat as JSON (written under the match lock with the move it
    # charges, so no extra row or query per move), and the earliest running deadline for
    # the sweep.
    time_control = models.JSONField(default=dict, blank=True)
    clocks = models.JSONField(default=list, blank=True)
    next_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    #: whether the players read the spectators' chat room while the match runs: the
    #: creator's choice, on by default for a listed match, off for a private one
    #: (games/matches/spectator_chat.py, docs/chat.md "Room rules per match")
    players_read_spectator_chat = models.BooleanField(default=True, db_default=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        # The API's admin powers (games/matches/permissions.py); view_match covers the replay page.
        permissions = [
            ("manage_match", "Can start, abort and hand seats to bots in any match"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=[choice.value for choice in MatchStatus]),
                name="match_status_valid",
            ),
            models.CheckConstraint(condition=Q(ply__gte=0), name="match_ply_not_negative"),
            models.CheckConstraint(
                condition=Q(players__gte=1) & Q(players__lte=16), name="match_players_in_range"
            ),
            models.CheckConstraint(
                condition=Q(seed_commitment__regex=r"^[0-9a-f]{64}$"),
                name="match_seed_commitment_is_sha256_hex",
            ),
            # A started game always has its snapshot (an open match aborted never had one).
            models.CheckConstraint(
                condition=Q(status__in=[MatchStatus.OPEN, MatchStatus.ABORTED])
                | Q(state__isnull=False),
                name="match_state_present_once_started",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} match #{self.pk} ({self.status})"


class Seat(models.Model):
    """A taken seat: a person or a bot. Open seats have no row."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    bot_kind = models.CharField(max_length=32, null=True, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["match", "position"], name="seat_unique_position"),
            models.UniqueConstraint(
                fields=["match", "user"],
                condition=Q(user__isnull=False),
                name="seat_one_per_user_per_match",
            ),
            models.CheckConstraint(
                condition=(Q(user__isnull=False) & Q(bot_kind__isnull=True))
                | (Q(user__isnull=True) & Q(bot_kind__isnull=False)),
                name="seat_user_xor_bot",
            ),
        ]

    def __str__(self) -> str:
        holder = f"bot:{self.bot_kind}" if self.bot_kind else str(self.user)
        return f"seat {self.position} of match #{self.match_id} ({holder})"


class AppendOnlyError(Exception):
    """Raised when code tries to change or delete a logged move."""


class MoveQuerySet(models.QuerySet):
    def update(self, **kwargs):
        raise AppendOnlyError("the move log is append-only: moves are never updated")

    def delete(self):
        raise AppendOnlyError("the move log is append-only: delete the match instead")


class Move(models.Model):
    """One entry of the append-only log. ``ply`` is the number of moves before it, so the
    move with ply k turns the state after k moves into the state after k + 1."""

    # DO_NOTHING in Python: the database cascades (ON DELETE CASCADE, migration 0002) so
    # that the append-only trigger can tell "the match is going" from "someone edits the log".
    match = models.ForeignKey(
        Match, on_delete=models.DO_NOTHING, related_name="moves"
    )
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    move = models.JSONField()
    # What engine.apply reported, unredacted: served per reader through
    # engine.redact_event while the match runs (games.matches.selectors.move_log).
    events = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = MoveQuerySet.as_manager()

    class Meta:
        ordering = ["match_id", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["match", "ply"], name="move_unique_ply"),
            models.CheckConstraint(condition=Q(ply__gte=0), name="move_ply_not_negative"),
        ]

    def __str__(self) -> str:
        return f"match #{self.match_id} ply {self.ply} by seat {self.seat}"

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError("the move log is append-only: moves are never updated")
        kwargs["force_insert"] = True
        return super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError("the move log is append-only: delete the match instead")


class Result(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="results")
    seat = models.PositiveSmallIntegerField()
    score = models.IntegerField()
    rank = models.PositiveSmallIntegerField()
    breakdown = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["match_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["match", "seat"], name="result_unique_seat"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="result_rank_positive"),
        ]

    def __str__(self) -> str:
        return f"match #{self.match_id} seat {self.seat}: {self.score} (rank {self.rank})"
