"""The REST shapes of a player's e-mail settings (docs/api.md, "E-mail")."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from games.mail.models import MailAddress

LANGUAGES = [code for code, _name in settings.LANGUAGES]


class MailSettingsSerializer(serializers.ModelSerializer):
    """Your address, whether it is confirmed, and what is mailed to you."""

    verified = serializers.SerializerMethodField()

    class Meta:
        model = MailAddress
        fields = ("address", "verified", "verified_at", "language", "daily_digest")

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
