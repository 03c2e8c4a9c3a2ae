"""Recovering lost work: the bot turns and scorings of matches that sat idle because a
task was lost (a broker that was down, a worker killed). Celery beat runs it
(``games.tasks.sweep_stalled_matches``); the tasks it sends are idempotent, so a match
that was only slow is not harmed."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.matches.models import Match, MatchStatus
from rules import get_engine


def resume_stalled_matches(*, idle_seconds: float = 30.0) -> dict:
    """Re-enqueue the bot turns and scoring of matches idle for ``idle_seconds``. Safe to
    repeat. Returns counts ``{"bot_turns": n, "scorings": m}``."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    counts = {"bot_turns": 0, "scorings": 0}
    for match_id in Match.objects.filter(
        status=MatchStatus.SCORING, updated_at__lt=cutoff
    ).values_list("pk", flat=True):
        enqueue_scoring(match_id)
        counts["scorings"] += 1
    stalled = Match.objects.filter(
        status=MatchStatus.ACTIVE, updated_at__lt=cutoff, seats__bot_kind__isnull=False
    ).distinct()
    for match in stalled.iterator():
        engine = get_engine(match.game)
        to_act = set(engine.to_act(engine.from_json(match.state)))
        for position in match.seats.filter(bot_kind__isnull=False).values_list(
            "position", flat=True
        ):
            if position in to_act:
                enqueue_bot_turn(match.pk, position, match.ply)
                counts["bot_turns"] += 1
    return counts
