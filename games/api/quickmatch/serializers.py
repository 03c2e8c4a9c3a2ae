"""Response shape of quick-match requests, for the OpenAPI schema (the views answer
``games.quickmatch.selectors.request_row`` as it is)."""

from rest_framework import serializers

from games.api.openapi import OptionsField, TimeControlField


class RatingRangeSerializer(serializers.Serializer):
    min = serializers.FloatField(allow_null=True)
    max = serializers.FloatField(allow_null=True)


class QuickMatchRequestRowSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    players = serializers.IntegerField()
    options = OptionsField(help_text="As the engine normalised them.")
    time_control = TimeControlField(help_text="As stored: preset, kind, times, policy.")
    rating_range = RatingRangeSerializer(help_text="On openskill mu; null: unbounded.")
    rating = serializers.FloatField(help_text="Your rating (mu) in the game when you asked.")
    status = serializers.CharField(help_text="waiting, matched, cancelled or expired.")
    match_id = serializers.IntegerField(allow_null=True, help_text="Once matched.")
    created_at = serializers.DateTimeField()
    expires_at = serializers.DateTimeField()
    closed_at = serializers.DateTimeField(allow_null=True)
