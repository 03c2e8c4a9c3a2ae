"""An analysis of a finished match and its analysed decisions.

One writer: ``games.analysis.services`` (requests) and ``games.analysis.running`` (the
task's progress and results). An analysis is unique per match, rules version and budget:
a second request for the same joins it instead of starting another, and a rules change
makes a new one (the old rows stay, no longer served). A change of the judge does not: the
row is judged again in place (``judge_version``), and until then it is not served.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", "queued"
    RUNNING = "running", "running"
    #: every decision analysed
    DONE = "done", "done"
    #: the CPU cap per match was reached: the decisions before it are analysed
    STOPPED = "stopped", "stopped at the CPU cap"
    FAILED = "failed", "failed"


#: statuses whose results are served as they are (200); the others answer 202 with progress
FINAL_STATUSES = (AnalysisStatus.DONE, AnalysisStatus.STOPPED)


class Analysis(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE,
                              related_name="analyses")
    rules_version = models.CharField(max_length=32)
    #: the budget (rules.analysis.AnalysisBudget): with the match and the rules version,
    #: it decides every figure of the analysis
    iterations = models.PositiveIntegerField()
    samples = models.PositiveIntegerField()
    #: the judge that computed it (rules.analysis.JUDGE_VERSION, which the service
    #: writes): only today's judge's analysis is served, and a request judges another's
    #: again in place. The defaults are the judge of the release before this column, so
    #: that release can still insert rows; they stay 2 when the judge moves on
    judge_version = models.PositiveSmallIntegerField(default=2, db_default=2)
    status = models.CharField(max_length=16, choices=AnalysisStatus.choices,
                              default=AnalysisStatus.QUEUED)
    decisions_total = models.PositiveIntegerField(default=0)
    decisions_done = models.PositiveIntegerField(default=0)
    cpu_seconds = models.FloatField(default=0.0)
    #: per seat: accuracy, losses, labels, key moments (rules.analysis.match_summary)
    seats = models.JSONField(default=list, blank=True)
    #: who asked first (None: requested automatically for a rated match); counts against
    #: that user's daily limit
    requested_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                                     on_delete=models.SET_NULL, related_name="analyses")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: the running task writes it with each decision: a running analysis whose heartbeat
    #: is old lost its worker, and the next request sends it again
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "analyses"
        constraints = [
            models.UniqueConstraint(fields=["match", "rules_version", "iterations", "samples"],
                                    name="analysis_one_per_match_version_budget"),
            models.CheckConstraint(
                condition=Q(status__in=[choice.value for choice in AnalysisStatus]),
                name="analysis_status_valid"),
            models.CheckConstraint(condition=Q(decisions_done__lte=models.F("decisions_total")),
                                   name="analysis_progress_within_total"),
        ]
        indexes = [models.Index(fields=["requested_by", "created_at"],
                                name="analysis_requests_per_user")]

    def __str__(self) -> str:
        return f"analysis of match #{self.match_id} ({self.status})"


class AnalysedDecision(models.Model):
    """One logged move judged from its seat's view at its ply (values in expected points
    ahead of the field, results in the search's mean reward, 0 to 1:
    rules/analysis/decision.py)."""

    analysis = models.ForeignKey(Analysis, on_delete=models.CASCADE, related_name="decisions")
    ply = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    played = models.JSONField()
    best = models.JSONField()
    value_played = models.FloatField()
    value_best = models.FloatField()
    loss = models.FloatField()
    # db_default: a running release that knows none of them can still insert a row
    result_played = models.FloatField(default=0.0, db_default=0.0)
    #: the best result among the candidates, whichever move ``best`` shows (judge 6: the
    #: move played is shown when it scores at least as many points, and may still lose result)
    result_best = models.FloatField(default=0.0, db_default=0.0)
    #: what accuracy reads: the result (the search's reward, 0 to 1) the move gave away
    result_loss = models.FloatField(default=0.0, db_default=0.0)
    #: inaccuracy, mistake, blunder, or "" for a good move
    label = models.CharField(max_length=16, blank=True, default="")
    #: legal moves the seat had (1: forced)
    choices = models.PositiveIntegerField()
    cpu_ms = models.FloatField()

    class Meta:
        ordering = ["analysis_id", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "ply"], name="analysed_decision_ply"),
            models.CheckConstraint(condition=Q(loss__gte=0), name="analysed_decision_loss"),
        ]

    def __str__(self) -> str:
        return f"ply {self.ply} of {self.analysis}"
