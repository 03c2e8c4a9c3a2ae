"""The personal-data export's document (games/leaving/export.py) for the OpenAPI schema:
every part typed with the component the same data has elsewhere in the API (a record
as GET record/ gives it, a match as the match list does), so a generated client reads
the download as it reads the rest (issue 41)."""

from __future__ import annotations

from rest_framework import serializers

from games.api.chat.serializers import ChatMessageSerializer, ChatMuteSerializer
from games.api.lobby.serializers import InvitationSerializer
from games.api.mail.serializers import MailSettingsSerializer
from games.api.matches.serializers import MatchSummarySerializer
from games.api.openapi import ViewField
from games.api.quickmatch.serializers import QuickMatchRequestRowSerializer
from games.api.ratings.serializers import RatingChangeSerializer, RatingSerializer
from games.api.records.serializers import RecordSerializer


class ExportedProfileSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    first_name = serializers.CharField(allow_blank=True)
    last_name = serializers.CharField(allow_blank=True)
    date_joined = serializers.DateTimeField()
    last_login = serializers.DateTimeField(allow_null=True)
    is_staff = serializers.BooleanField()


class ExportedMatchSerializer(MatchSummarySerializer):
    your_view = ViewField(required=False,
                          help_text="A running match: the view of your own seat.")


class ExportedChatMessageSerializer(ChatMessageSerializer):
    text = serializers.CharField(help_text="As you wrote it, even when deleted or hidden.")


class ExportedChatMuteSerializer(ChatMuteSerializer):
    created_at = serializers.DateTimeField(help_text="When you muted them.")


class PersonalDataSerializer(serializers.Serializer):
    format = serializers.CharField(help_text='"han-hansa-personal-data".')
    format_version = serializers.IntegerField()
    exported_at = serializers.DateTimeField()
    profile = ExportedProfileSerializer()
    ratings = RatingSerializer(many=True)
    rating_history = RatingChangeSerializer(many=True)
    records = RecordSerializer(many=True, help_text="Every finished match you played, "
                               "oldest first, as GET record/ gives it.")
    records_next_after = serializers.IntegerField(
        allow_null=True, help_text="Pass as records_after for the next page; null at the end.")
    matches = ExportedMatchSerializer(many=True, help_text="Every other match you sit in or "
                                      "played.")
    invitations = InvitationSerializer(many=True, help_text="Received and sent.")
    quick_match_requests = QuickMatchRequestRowSerializer(many=True)
    chat_messages = ExportedChatMessageSerializer(
        many=True, help_text="Every chat message you wrote, oldest first (docs/chat.md).")
    chat_mutes = ExportedChatMuteSerializer(
        many=True, help_text="Whom you muted in chat, oldest first (docs/chat.md).")
    mail = MailSettingsSerializer(allow_null=True, help_text="Your e-mail address and "
                                  "choices; null when you set none.")
