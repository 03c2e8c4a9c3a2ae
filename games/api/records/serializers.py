"""Response shapes of game records and their verification (for the OpenAPI schema: the
views answer games.records.selectors' documents as they are; docs/records.md)."""

from rest_framework import serializers

from games.api.analysis.serializers import AnalysisSectionSerializer
from games.api.matches.serializers import SeatSerializer
from games.api.openapi import (
    MoveField,
    OptionsField,
    ScoreBreakdownField,
    TimeControlField,
)


class RecordResultSerializer(serializers.Serializer):
    scores = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    ranks = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    winners = serializers.ListField(child=serializers.IntegerField())
    breakdown = serializers.ListField(child=ScoreBreakdownField(),
                                      help_text="Per seat: where every point came from.")
    forfeits = serializers.ListField(child=serializers.IntegerField(),
                                     help_text="Seats that resigned or forfeited, in order.")
    timeouts = serializers.ListField(child=serializers.IntegerField())


class RecordMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = MoveField()
    state_digest = serializers.CharField(help_text="sha256 of the state after the move.")


class RecordIncidentSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    kind = serializers.CharField()


class RecordMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    created_at = serializers.CharField(allow_null=True, help_text="ISO 8601.")
    started_at = serializers.CharField(allow_null=True, help_text="ISO 8601.")
    finished_at = serializers.CharField(allow_null=True, help_text="ISO 8601.")


class RecordSignatureSerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="The signing key (GET /api/v1/records/keys/).")
    algorithm = serializers.CharField(help_text="Ed25519.")
    value = serializers.CharField(help_text="The 64-byte signature, base64, over the "
                                  "record's canonical signed document (docs/records.md).")


class RecordSerializer(serializers.Serializer):
    format = serializers.CharField()
    format_version = serializers.IntegerField()
    game = serializers.CharField()
    rules_version = serializers.CharField()
    players = serializers.IntegerField()
    options = OptionsField()
    time_control = TimeControlField()
    seats = SeatSerializer(many=True)
    seed = serializers.CharField()
    seed_commitment = serializers.CharField()
    initial_state_digest = serializers.CharField()
    moves = RecordMoveSerializer(many=True)
    incidents = RecordIncidentSerializer(many=True)
    result = RecordResultSerializer()
    match = RecordMatchSerializer()
    signature = RecordSignatureSerializer(help_text="The service's signature "
                                          "(docs/records.md \"Signatures\").")
    analysis = AnalysisSectionSerializer(
        required=False, allow_null=True, help_text="With analysis=true only: the match's "
        "final analysis (docs/analysis.md), null when it has none.")


class VerdictSerializer(serializers.Serializer):
    valid = serializers.BooleanField()
    diverges_at_ply = serializers.IntegerField(
        allow_null=True, help_text="First ply that disagrees: 0 the deal, k the move at "
        "ply k, the number of moves the end; null when valid or when only the signature "
        "fails.")
    reason = serializers.CharField(
        allow_null=True, help_text="seed_commitment_mismatch, state_mismatch, game_over, "
        "not_your_turn, illegal_move, impossible_incident, game_not_over, result_mismatch, "
        "signature_unknown_key, signature_mismatch; null when valid.")
    message = serializers.CharField()
    plies_checked = serializers.IntegerField()
    computed_result = RecordResultSerializer(
        allow_null=True, help_text="The result the record's moves lead to; null when they "
        "lead to none.")
    signature = serializers.ChoiceField(
        choices=["valid", "absent", "unknown_key", "mismatch", "unchecked"],
        help_text="valid: signed by a key this service publishes; absent: no signature, "
        "the replay alone vouches for the record; unknown_key or mismatch: invalid; "
        "unchecked: the replay refused the record, so its signature was not checked.")


class RecordSigningKeySerializer(serializers.Serializer):
    key_id = serializers.CharField(help_text="First 16 hex digits of the SHA-256 of the "
                                   "public key's 32 bytes.")
    algorithm = serializers.CharField(help_text="Ed25519.")
    public_key = serializers.CharField(help_text="The 32 raw bytes, base64.")
    current = serializers.BooleanField(help_text="Whether new records are signed with it; "
                                       "the others are older keys, still published.")


class RecordSigningKeySetSerializer(serializers.Serializer):
    keys = RecordSigningKeySerializer(many=True, help_text="The current key first.")
