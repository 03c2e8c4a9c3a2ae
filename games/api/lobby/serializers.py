"""Request envelopes of the lobby endpoints (the services check the content)."""

from rest_framework import serializers

from games.api.matches.serializers import (
    CreateMatchRequestSerializer,
    MatchDetailSerializer,
    RefusesUnknownFields,
)
from games.api.openapi import TextField, UsernamesField, WholeNumberField


class CreatePrivateMatchRequestSerializer(CreateMatchRequestSerializer):
    """A new private match (you sit in it) and whom to invite; unknown keys are refused
    (invalid_input, unknown_field)."""

    take_seat = None  # the creator of a private match always sits
    invite = UsernamesField(required=False, default=None, allow_null=True,
                            help_text="Usernames to invite.")


class InviteRequestSerializer(RefusesUnknownFields):
    """Whom to invite to the match; unknown keys are refused (invalid_input,
    unknown_field)."""

    usernames = UsernamesField(help_text="Usernames to invite.")


class JoinByCodeRequestSerializer(RefusesUnknownFields):
    """A private match's invite code and, optionally, the seat to take; unknown keys are
    refused (invalid_input, unknown_field)."""

    invite_code = TextField(help_text="The private match's invite code.")
    position = WholeNumberField(required=False, default=None, allow_null=True,
                                help_text="Seat to take (default: lowest free).")


class InvitationSerializer(serializers.Serializer):
    """An invitation as the lobby answers it (games.lobby.selectors.invitation_row): for
    the OpenAPI schema, the rows are rendered as they are."""

    id = serializers.IntegerField()
    match_id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    match_status = serializers.CharField(help_text="open, active, scoring, finished or "
                                         "aborted.")
    inviter = serializers.CharField(allow_null=True, help_text="Null once the inviter's "
                                    "account is gone.")
    invitee = serializers.CharField()
    position = serializers.IntegerField(allow_null=True, help_text="The seat offered; null: "
                                        "any free one.")
    status = serializers.CharField(help_text="pending, accepted, declined or withdrawn.")
    is_rematch = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    responded_at = serializers.DateTimeField(allow_null=True)


class LobbyInfoSerializer(serializers.Serializer):
    """What the lobby knows of a match (games.lobby.selectors.private_info)."""

    private = serializers.BooleanField(help_text="Unlisted: seats by invite code or "
                                       "invitation only.")
    invite_code = serializers.CharField(allow_null=True, help_text="For the creator and "
                                        "the players of a private match; null otherwise.")
    rematch = serializers.IntegerField(allow_null=True, help_text="The id of this match's "
                                       "rematch, once proposed.")
    rematch_of = serializers.IntegerField(allow_null=True, help_text="The match this one "
                                          "is the rematch of.")


class LobbyMatchSerializer(MatchDetailSerializer):
    """A match as a lobby action answers it: the detail, with its lobby facts."""

    lobby = LobbyInfoSerializer()
