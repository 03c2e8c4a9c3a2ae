"""Request envelopes of the lobby endpoints (the services check the content)."""

from rest_framework import serializers

from games.api.serializers import CreateMatchRequestSerializer, RefusesUnknownFields


class CreatePrivateMatchRequestSerializer(CreateMatchRequestSerializer):
    take_seat = None  # the creator of a private match always sits
    invite = serializers.JSONField(required=False, default=None, allow_null=True,
                                   help_text="Usernames to invite.")


class InviteRequestSerializer(RefusesUnknownFields):
    usernames = serializers.JSONField(help_text="Usernames to invite.")


class JoinByCodeRequestSerializer(RefusesUnknownFields):
    invite_code = serializers.JSONField(help_text="The private match's invite code.")
    position = serializers.JSONField(required=False, default=None, allow_null=True,
                                     help_text="Seat to take (default: lowest free).")
