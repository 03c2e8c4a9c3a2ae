"""Response shape of record verification (for the OpenAPI schema)."""

from rest_framework import serializers


class VerdictSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    diverges_at_ply = serializers.IntegerField(
        allow_null=True, help_text="First ply that disagrees: 0 the deal, k the move at "
        "ply k, the number of moves the end; null when valid.")
    reason = serializers.CharField(
        allow_null=True, help_text="seed_commitment_mismatch, state_mismatch, game_over, "
        "not_your_turn, illegal_move, impossible_incident, game_not_over, result_mismatch; "
        "null when valid.")
    message = serializers.CharField()
    plies_checked = serializers.IntegerField()
    computed_result = serializers.JSONField(allow_null=True)
