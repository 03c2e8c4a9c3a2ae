"""The REST shapes of notifications (docs/notifications.md)."""

from __future__ import annotations

from rest_framework import serializers

from games.notifications.models import EVENT_TYPES


def _channel_serializer(name: str, doc: str) -> type[serializers.Serializer]:
    fields = {event_type: serializers.BooleanField(required=False)
              for event_type in EVENT_TYPES}
    return type(name, (serializers.Serializer,), {"__doc__": doc, **fields})


ChannelPreferencesSerializer = _channel_serializer(
    "ChannelPreferencesSerializer", "Each event type on or off for one channel.")


class NotificationPreferencesSerializer(serializers.Serializer):
    """Every channel's every event type (defaults filled in); a PATCH names only what it
    changes."""

    push = ChannelPreferencesSerializer(required=False)
    email = ChannelPreferencesSerializer(required=False)


class PushKeysSerializer(serializers.Serializer):
    p256dh = serializers.CharField(help_text="The browser's P-256 public key, base64url.")
    auth = serializers.CharField(help_text="The browser's 16-byte auth secret, base64url.")


class NewPushSubscriptionSerializer(serializers.Serializer):
    """What ``PushSubscription.toJSON()`` gives in a browser (other keys are ignored)."""

    endpoint = serializers.URLField(help_text="The push service's URL (https).")
    keys = PushKeysSerializer()


class PushSubscriptionSerializer(serializers.Serializer):
    """A registered subscription (its keys are never shown again)."""

    id = serializers.IntegerField()
    endpoint = serializers.CharField()
    language = serializers.CharField(help_text="The language its pushes are written in.")
    created = serializers.DateTimeField()


class PushKeySerializer(serializers.Serializer):
    public_key = serializers.CharField(help_text="The VAPID public key: the browser's "
                                       "applicationServerKey (base64url).")


class WaitingGameSerializer(serializers.Serializer):
    """A match waiting for your move."""

    match_id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    ply = serializers.IntegerField()
    seat = serializers.IntegerField(help_text="Your seat that owes a decision.")
    time_control = serializers.CharField(help_text="none, realtime or turn_based")
    deadline = serializers.CharField(allow_null=True, help_text="When your seat's clock "
                                     "runs out (UTC, ISO 8601 with Z); null without a clock.")
