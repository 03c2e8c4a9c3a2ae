"""The REST shapes of a player's e-mail settings (docs/api.md, "E-mail")."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from games.mail.models import EVENT_TYPES, MailAddress

LANGUAGES = [code for code, _name in settings.LANGUAGES]


class MailSettingsSerializer(serializers.ModelSerializer):
    """Your address, whether it is confirmed, and what is mailed to you."""

    verified = serializers.SerializerMethodField()
    muted_types = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_TYPES))

    class Meta:
        model = MailAddress
        fields = ("address", "verified", "verified_at", "language", "daily_digest",
                  "muted_types", "all_muted")

    def get_verified(self, row: MailAddress) -> bool:
        return row.verified_at is not None


class SetAddressSerializer(serializers.Serializer):
    address = serializers.CharField(max_length=254, help_text="Your e-mail address: a "
                                    "confirmation link is sent to it.")
    language = serializers.ChoiceField(choices=LANGUAGES, required=False, help_text="The "
                                       "mails' language; by default the request's.")


class MailChoicesSerializer(serializers.Serializer):
    daily_digest = serializers.BooleanField(required=False, help_text="One mail a day "
                                            "listing what happened, instead of a mail each.")
    language = serializers.ChoiceField(choices=LANGUAGES, required=False)
    muted_types = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_TYPES),
                                        required=False, max_length=len(EVENT_TYPES))
    all_muted = serializers.BooleanField(required=False, help_text="No e-mail at all.")
