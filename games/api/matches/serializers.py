"""Request parsing and response shapes of the games REST API.

Request serializers only check the envelope (a JSON object with the expected keys); the
domain checks (game, options, seats, moves, plies) belong to the services and selectors,
which raise the stable error codes. Response serializers render the dicts the selectors
build and document them in the OpenAPI schema.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from games.api.catalogue.schema import (
    BotLevelField,
    DrawingField,
    MapsField,
    MoveSchemaField,
    OptionsSchemaField,
)
from games.api.openapi import (
    DEPRECATED_USER,
    BotSeatsField,
    DeprecatedUserField,
    EngineStateField,
    EventField,
    FlagField,
    LoggedMoveField,
    MoveField,
    NameField,
    OptionsField,
    ScoreBreakdownField,
    TieBreakField,
    TimeControlChoiceField,
    TimeControlField,
    ViewField,
    WholeNumberField,
)
from games.matches.models import MatchStatus


# -- requests ---------------------------------------------------------------------------------
class RefusesUnknownFields(serializers.Serializer):
    """Refuses keys the request does not define (400 ``invalid_input``, per-field code
    ``unknown_field``) instead of dropping them: a misspelt optional key such as
    ``"expectedPly"`` or ``"bot_seat"`` would otherwise be ignored without a word, and the
    move would skip its stale-ply check or the match start without its bots."""

    def validate(self, attrs):
        data = self.initial_data
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        if unknown:
            raise serializers.ValidationError(
                {str(name)[:40]: [ErrorDetail(gettext("Unknown field."), code="unknown_field")]
                 for name in unknown[:10]}
            )
        return attrs


class CreateMatchRequestSerializer(RefusesUnknownFields):
    """A new match; unknown keys are refused (invalid_input, unknown_field)."""

    game = NameField(help_text='Registry key of the game: "han" or "hansa".')
    players = WholeNumberField(help_text="Number of seats.")
    options = OptionsField(
        required=False, default=None, allow_null=True,
        help_text="Game options (see GET /games/{game}/)."
    )
    bot_seats = BotSeatsField(
        required=False, default=None, allow_null=True,
        help_text='Seats given to bots: {"<position>": "<bot kind>"}, e.g. {"1": "greedy"}.',
    )
    take_seat = serializers.BooleanField(
        required=False, default=True, help_text="Sit at the table yourself (default true)."
    )
    creator_seat = WholeNumberField(
        required=False, default=None, allow_null=True,
        help_text="Your position (default: lowest free)."
    )
    time_control = TimeControlChoiceField(
        required=False, default=None, allow_null=True,
        help_text='A preset name from GET /games/{game}/ ("realtime-10+30", '
        '"turn-based-3d", "none": the default), or {"preset", "timeout_policy"?: '
        '"takeover"|"forfeit", "takeover_bot"?}, or a custom {"kind": "realtime", '
        '"initial_seconds", "increment_seconds"} / {"kind": "turn_based", "days_per_move"}.',
    )
    players_read_spectator_chat = FlagField(
        required=False, default=None, allow_null=True,
        help_text="Whether the players read (and write) the spectators' chat room while the "
        "match runs (docs/chat.md). Default: true for a listed match, false for a private "
        "one. Fixed once the match is made; not a boolean: 400 invalid_request.",
    )


class JoinRequestSerializer(serializers.Serializer):
    """The seat to take."""

    position = WholeNumberField(
        required=False, default=None, allow_null=True,
        help_text="Seat to take (default: lowest free)."
    )


class StartRequestSerializer(serializers.Serializer):
    """How to start a match with open seats."""

    fill_with = NameField(
        required=False, default=None, allow_null=True,
        help_text='Bot kind for every open seat ("random" or "greedy"); without it a match '
        "with open seats is refused with match_not_full.",
    )


class AbortRequestSerializer(serializers.Serializer):
    """Why the match stops."""

    reason = serializers.CharField(required=False, default="", allow_blank=True, max_length=200)


class ResignRequestSerializer(RefusesUnknownFields):
    """Resigning; unknown keys are refused (invalid_input, unknown_field)."""

    seat = WholeNumberField(
        required=False, default=None, allow_null=True,
        help_text="Your seat, as a check (another seat is refused with not_your_seat).",
    )


class SubmitMoveRequestSerializer(RefusesUnknownFields):
    """A move for your seat; unknown keys are refused (invalid_input, unknown_field)."""

    # required (issue 41): a body without a move is 400 invalid_input, code "required"
    move = MoveField(help_text="The move, a JSON object as listed by GET legal-moves.")
    expected_ply = WholeNumberField(
        required=False, default=None, allow_null=True,
        help_text="The ply you saw. Turns: a different current ply is refused with "
        "stale_ply; a simultaneous choice accepts any ply since it became due (docs/api.md).",
    )


# -- responses --------------------------------------------------------------------------------
class PlayerRangeSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField()


class GameSerializer(serializers.Serializer):
    game = serializers.CharField()
    title = serializers.CharField()
    players = PlayerRangeSerializer()
    options = OptionsSchemaField(help_text="JSON Schema of the game's options: free-form "
                                 "here, typed as the Options component.")
    maps = MapsField(
        required=False,
        help_text="Han: each map with its board file (spaces with coordinates, provinces with "
        "outlines, roads, alliances) and its dragon spaces.")
    drawing = DrawingField(
        required=False,
        help_text="What a client needs to draw the game: Han's canvas, colours and scoring "
        "track; Hansa's cities and colours, every card, the prosperity track with its "
        "multipliers, the profit and luxury tables (docs/api.md, the catalogue).")
    move_schema = MoveSchemaField(
        help_text="JSON Schema of the game's moves: a oneOf with a type discriminator, one "
        "branch per move type; free-form here, typed as the Move components of this "
        "document.")
    rules_version = serializers.CharField()
    bot_kinds = serializers.ListField(child=serializers.CharField())
    time_controls = serializers.ListField(child=TimeControlField(),
                                          help_text="The time-control presets.")
    bot_levels = serializers.ListField(child=BotLevelField(), 
        help_text="Each bot kind: description, search budget (null for random and greedy) "
        "and strength measured in this game (win rates, think time per move)."
    )


class SeatSerializer(serializers.Serializer):
    position = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["human", "bot", "open"])
    username = serializers.CharField(
        allow_null=True, help_text="The person who plays the seat; on a seat a bot took over "
        "from them, still that person (see taken_over_from). Null on a bot's own seat.")
    user = DeprecatedUserField(allow_null=True, help_text=DEPRECATED_USER)
    bot_kind = serializers.CharField(allow_null=True)
    taken_over_from = serializers.CharField(
        allow_null=True, help_text="On a bot seat: the person it was taken from (a timeout, "
        "an admin's hand-over, a resignation or a forfeit). Null otherwise.")


class ClockSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    remaining_ms = serializers.IntegerField(help_text="Time left, counted down to now.")
    running = serializers.BooleanField(help_text="The seat owes a decision and is not a bot.")
    deadline = serializers.DateTimeField(allow_null=True,
                                         help_text="When a running clock reaches 0.")


class IncidentSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="Moves played before it.")
    seat = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=["resign", "timeout", "takeover", "reclaim",
                                            "forfeit", "time_added"])
    username = serializers.CharField(allow_null=True, help_text="The player it happened to; "
                                     "null for added time.")
    user = DeprecatedUserField(allow_null=True, help_text=DEPRECATED_USER)
    bot_kind = serializers.CharField(allow_null=True)
    seconds = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()


class MatchSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField()
    options = OptionsField()
    players = serializers.IntegerField()
    status = serializers.ChoiceField(choices=MatchStatus.choices)
    ply = serializers.IntegerField(help_text="Moves played so far.")
    to_act = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="Seats owing a decision now (empty unless active); with your_seat: is it "
        "your turn?",
    )
    seats = SeatSerializer(many=True)
    your_seat = serializers.IntegerField(allow_null=True)
    seed_commitment = serializers.CharField(help_text="sha256(seed), public from the start.")
    seed = serializers.CharField(
        allow_null=True, help_text="Revealed once the match is finished or aborted."
    )
    rules_version = serializers.CharField()
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    abort_reason = serializers.CharField(allow_blank=True)
    time_control = TimeControlField(help_text="As stored: preset, kind, times, policy.")
    players_read_spectator_chat = serializers.BooleanField(
        help_text="Whether the players read the spectators' chat room while the match runs "
        "(the creator's choice; docs/chat.md).")
    clocks = ClockSerializer(many=True, help_text="Empty without a time control.")


class MatchDetailSerializer(MatchSummarySerializer):
    view = ViewField(
        allow_null=True, help_text="engine.view for your seat, or the spectator view."
    )
    incidents = IncidentSerializer(many=True, help_text="Resignations, timeouts, takeovers...")
    reclaimable_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat a bot holds for you since your clock ran out "
        "(POST reclaim/ takes it back); null otherwise.")


class LegalMovesSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    ply = serializers.IntegerField()
    to_act = serializers.ListField(child=serializers.IntegerField())
    moves = serializers.ListField(child=MoveField())


class LoggedMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    move = LoggedMoveField(help_text="Redacted for you while the match runs.")
    events = serializers.ListField(
        child=EventField(),
        help_text="What the move caused, in order (objects with a type); while the match "
        "runs another seat's secret is replaced by a public stand-in (a pile draw without "
        "its card).",
    )
    created_at = serializers.DateTimeField()


class SubmittedMoveSerializer(serializers.Serializer):
    ply = serializers.IntegerField(help_text="The ply of the logged move.")
    seat = serializers.IntegerField()
    move = MoveField()
    events = serializers.ListField(child=EventField())
    match = MatchDetailSerializer()


class ReplaySerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField(allow_null=True)
    ended = serializers.BooleanField(help_text="The match has ended: everything is shown.")
    view = ViewField()
    move = LoggedMoveSerializer(allow_null=True,
                                help_text="The move that led to this ply (null at ply 0).")
    state = EngineStateField(required=False, help_text="The full state, once ended: the "
                             "engine's own JSON (free-form, x-free-form).")
    views = serializers.ListField(
        child=ViewField(), required=False,
        help_text="Once ended: every seat's view, in seat order (the all-seeing picture).",
    )


class SeatResultSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    score = serializers.IntegerField()
    rank = serializers.IntegerField(help_text="1 = best; equal ranks after the tie-breaks share.")
    tie_break = TieBreakField(
        help_text="This seat's tie-break values, by the keys of tie_break_keys.")
    breakdown = ScoreBreakdownField(help_text="Where every point came from, per category.")


class ResultIncidentSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    kind = serializers.CharField(help_text="resign, forfeit, takeover or timeout.")
    ply = serializers.IntegerField()


class ResultSerializer(serializers.Serializer):
    match_id = serializers.IntegerField()
    status = serializers.CharField()
    seed = serializers.CharField()
    end_reason = serializers.CharField(
        allow_null=True, help_text='Why the game ended (Han: "pile_depleted" or '
        '"no_placement"; Hansa: "final_scoring").')
    tie_break_keys = serializers.ListField(
        child=serializers.CharField(),
        help_text="The tie-breaks after the score, in the order they apply.")
    results = SeatResultSerializer(many=True)
    ranks = serializers.ListField(child=serializers.IntegerField(), help_text="Per seat.")
    winners = serializers.ListField(child=serializers.IntegerField())
    forfeits = ResultIncidentSerializer(
        many=True, help_text="Seats that resigned or forfeited (ranked last), first to go "
        "first.")
    timeouts = ResultIncidentSerializer(many=True, help_text="Seats whose clock ran out.")


class EventsSerializer(serializers.Serializer):
    since = serializers.IntegerField()
    ply = serializers.IntegerField()
    status = serializers.CharField()
    to_act = serializers.ListField(child=serializers.IntegerField())
    moves = LoggedMoveSerializer(many=True)
    view = ViewField(allow_null=True)
    clocks = ClockSerializer(many=True, help_text="Empty without a time control.")
    incidents = IncidentSerializer(many=True, help_text="Every incident so far, in order.")
