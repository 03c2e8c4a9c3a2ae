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
