"""Chat rooms and their messages. One writer: ``games.chat.services``.

A match has two rooms (docs/chat.md): the players' room and the spectators' room, made on
first use. A message is never edited: its author may delete it (it stays, shown as
deleted, so a reply keeps its context) and a moderator may hide it. Messages are part of
no game record and of no replay's state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class RoomKind(models.TextChoices):
    PLAYERS = "players", "players"
    SPECTATORS = "spectators", "spectators"


class ChatRoom(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="chat_rooms")
    # whether the match's players read the spectators' room while it runs is the match's
    # fixed option (``Match.players_read_spectator_chat``), read there: not copied here
    kind = models.CharField(max_length=16, choices=RoomKind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "kind"], name="chat_room_once_per_match"),
            models.CheckConstraint(condition=Q(kind__in=[kind.value for kind in RoomKind]),
                                   name="chat_room_kind_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} room of match #{self.match_id}"


class ChatMessage(models.Model):
    room = models.ForeignKey(ChatRoom, on_delete=models.CASCADE, related_name="messages")
    # SET_NULL: an erased account's messages name the tombstone (docs/chat.md "Privacy")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True,
                               on_delete=models.SET_NULL, related_name="chat_messages")
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    #: the match's ply when the message was sent: ties it to the moment of play
    ply = models.PositiveIntegerField()
    deleted_by_author = models.BooleanField(default=False)
    hidden_by_moderator = models.BooleanField(default=False)

    class Meta:
        ordering = ["room_id", "id"]
        indexes = [models.Index(fields=["room", "id"], name="chat_message_by_room")]

    def __str__(self) -> str:
        return f"message #{self.pk} in {self.room_id}"


class ChatMute(models.Model):
    """``user`` muted ``muted``: no message of ``muted`` is sent to ``user`` any more, on
    any transport (filtered by the server, not hidden by a client)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="chat_mutes")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                              related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["user_id", "id"]
        constraints = [
            models.UniqueConstraint(fields=["user", "muted"], name="chat_mute_once"),
            models.CheckConstraint(condition=~Q(user=models.F("muted")),
                                   name="chat_mute_not_oneself"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}"
