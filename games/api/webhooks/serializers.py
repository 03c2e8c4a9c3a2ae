"""The REST shapes of an app's webhook endpoints and their delivery log (docs/webhooks.md)."""

from __future__ import annotations

from rest_framework import serializers

from games.webhooks.models import EVENT_TYPES, Delivery, Endpoint


class EndpointSerializer(serializers.ModelSerializer):
    """An endpoint as its app's owner registers and edits it (never its secret)."""

    url = serializers.URLField(max_length=500)
    event_types = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_TYPES),
                                        min_length=1, max_length=len(EVENT_TYPES))

    class Meta:
        model = Endpoint
        fields = ("id", "url", "event_types", "active", "disabled_reason", "created")
        read_only_fields = ("id", "disabled_reason", "created")


class NewEndpointSerializer(EndpointSerializer):
    secret = serializers.CharField(
        read_only=True, help_text="The Standard Webhooks signing secret (whsec_...): shown "
        "this once, never again.")

    class Meta(EndpointSerializer.Meta):
        fields = (*EndpointSerializer.Meta.fields, "secret")


class DeliveryDataSerializer(serializers.Serializer):
    """What a delivery's body says in ``data``: ids and public facts only (docs/webhooks.md
    "Event types and payloads"); which keys appear depends on the event type."""

    user_id = serializers.IntegerField(help_text="The app's user this delivery is for.")
    match_id = serializers.IntegerField(required=False)
    game = serializers.CharField(required=False)
    ply = serializers.IntegerField(required=False, help_text="your_turn")
    seat = serializers.IntegerField(required=False, help_text="your_turn")
    status = serializers.CharField(required=False, help_text="match_finished")
    invitation_id = serializers.IntegerField(required=False, help_text="invitation")


class DeliveryPayloadSerializer(serializers.Serializer):
    """The body POSTed to the endpoint, exactly as signed."""

    # a plain string: the event types' enum is named once, by the endpoint's event_types
    # (a second use would name it twice: drf-spectacular W001)
    type = serializers.CharField(help_text="the event type: " + ", ".join(EVENT_TYPES))
    timestamp = serializers.CharField(help_text="UTC, ISO 8601 with Z")
    data = DeliveryDataSerializer()


class DeliverySerializer(serializers.ModelSerializer):
    # a plain string, not a named enum: "status" enums of other components would collide
    # in the schema's names (drf-spectacular W001, which `check --deploy` fails on)
    status = serializers.CharField(help_text="pending, delivered or failed")
    payload = DeliveryPayloadSerializer(read_only=True)

    class Meta:
        model = Delivery
        fields = ("id", "message_id", "event_type", "payload", "status", "attempts",
                  "last_status_code", "last_error", "last_latency_ms", "created", "finished")
