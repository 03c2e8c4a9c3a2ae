"""The shapes of the chat's REST endpoints (docs/chat.md)."""

from __future__ import annotations

from rest_framework import serializers


class ChatMessageSerializer(serializers.Serializer):
    """A message as every reader of its room is shown it."""

    id = serializers.IntegerField()
    match = serializers.CharField()
    room = serializers.ChoiceField(choices=["players", "spectators"])
    author = serializers.CharField(allow_null=True, help_text="The author's username (the "
                                   "tombstone's once their account is erased).")
    text = serializers.CharField(allow_blank=True, help_text="Empty when deleted or hidden.")
    ply = serializers.IntegerField(help_text="The match's ply when it was sent.")
    created_at = serializers.DateTimeField()
    deleted = serializers.BooleanField(help_text="Deleted by its author.")
    hidden = serializers.BooleanField(help_text="Hidden by a moderator.")


class SendChatMessageRequestSerializer(serializers.Serializer):
    # checked by games.chat.services.clean_text, which answers the chat's own codes
    # (chat_text_empty, chat_text_too_long) rather than a serializer's
    text = serializers.CharField(allow_blank=True, trim_whitespace=False,
                                 help_text="Plain text of one line, at most CHAT_MAX_LENGTH "
                                 "characters (500 by default).")


class ChatMuteSerializer(serializers.Serializer):
    username = serializers.CharField(help_text="A user whose chat messages you no longer "
                                     "receive, on any transport.")
