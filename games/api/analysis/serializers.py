"""Response shapes of an analysis (for the OpenAPI schema: the views answer
games.analysis.selectors' documents as they are; docs/analysis.md)."""

from rest_framework import serializers

from games.api.openapi import MoveField

_LABEL = "inaccuracy, mistake, blunder; null for a good move."


class AnalysisBudgetSerializer(serializers.Serializer):
    iterations = serializers.IntegerField(help_text="Search iterations per decision.")
    samples = serializers.IntegerField(help_text="Worlds the moves are compared in.")


class AnalysisProgressBodySerializer(serializers.Serializer):
    done = serializers.IntegerField(help_text="Decisions analysed.")
    total = serializers.IntegerField(help_text="Decisions in the match.")
    percent = serializers.FloatField()


class AnalysisThresholdsSerializer(serializers.Serializer):
    inaccuracy = serializers.FloatField(help_text="Smallest loss (points) so labelled.")
    mistake = serializers.FloatField()
    blunder = serializers.FloatField()
    accuracy_scale = serializers.FloatField(
        help_text="accuracy = 100 * exp(-result lost / the match's decisions with a "
        "choice per seat / accuracy_scale).")


class LabelCountsSerializer(serializers.Serializer):
    inaccuracy = serializers.IntegerField()
    mistake = serializers.IntegerField()
    blunder = serializers.IntegerField()


class KeyMomentSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    kind = serializers.CharField(help_text="loss or swing.")
    points = serializers.FloatField(help_text="The loss, or the change of the seat's value.")
    label = serializers.CharField(allow_null=True, help_text=_LABEL)


class AnalysedSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    decisions = serializers.IntegerField()
    choices = serializers.IntegerField(help_text="Decisions with more than one legal move.")
    accuracy = serializers.FloatField(allow_null=True,
                                      help_text="0-100; null without a decision to make.")
    mean_loss = serializers.FloatField(help_text="Points lost per decision with a choice.")
    mean_result_loss = serializers.FloatField(
        help_text="Result (the search's reward, 0-1) lost per decision with a choice.")
    result_lost = serializers.FloatField(
        help_text="Result (the search's reward, 0-1) lost over the match (what accuracy "
        "reads).")
    labels = LabelCountsSerializer()
    key_moments = KeyMomentSerializer(many=True)


class AnalysedDecisionSerializer(serializers.Serializer):
    ply = serializers.IntegerField()
    seat = serializers.IntegerField()
    played = MoveField()
    best = MoveField(
        help_text="The move shown as the best found: the candidate with the best result, or "
        "the move played when it scores at least as many points (then loss is 0).")
    value_played = serializers.FloatField(
        help_text="Expected points ahead of the field, from the seat's view at that ply.")
    value_best = serializers.FloatField(help_text="The same after the move shown as best.")
    loss = serializers.FloatField(
        help_text="Points given away against the move shown as best (what labels read).")
    result_played = serializers.FloatField(
        help_text="The search's mean reward for the seat after the move, 0-1: the expected "
        "share of the other seats it finishes ahead of (a tie half).")
    result_best = serializers.FloatField(
        help_text="The best result the search found among the candidates (the move played "
        "included), whichever move is shown as best.")
    result_loss = serializers.FloatField(
        help_text="result_best minus result_played (what accuracy reads): above 0 even when "
        "best is the move played, if it scores more points but a worse result.")
    label = serializers.CharField(allow_null=True, help_text=_LABEL)
    choices = serializers.IntegerField(help_text="Legal moves the seat had.")


class AnalysisSectionSerializer(serializers.Serializer):
    """The analysis without the match's id and game (a record's ``analysis`` section)."""

    # a string, not an enum: drf-spectacular would name a second "status" enum beside the
    # match's by a hash (a warning that fails `check --deploy`)
    status = serializers.CharField(
        help_text="queued, running, done, stopped (the CPU cap was reached: the later "
        "decisions are missing) or failed.")
    rules_version = serializers.CharField()
    judge_version = serializers.IntegerField(
        help_text="The judge that computed it. After a release that changes the judge (or "
        "its search), an analysis of the judge before is not served until a request judges "
        "it again.")
    budget = AnalysisBudgetSerializer()
    progress = AnalysisProgressBodySerializer()
    cpu_seconds = serializers.FloatField()
    thresholds = AnalysisThresholdsSerializer()
    requested_at = serializers.CharField(help_text="ISO 8601.")
    finished_at = serializers.CharField(allow_null=True, help_text="ISO 8601.")
    seats = AnalysedSeatSerializer(many=True, required=False,
                                   help_text="Once done or stopped.")
    decisions = AnalysedDecisionSerializer(many=True, required=False,
                                           help_text="Once done or stopped, in ply order.")


class AnalysisSerializer(AnalysisSectionSerializer):
    match_id = serializers.IntegerField()
    game = serializers.CharField()
