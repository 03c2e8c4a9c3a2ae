"""Recovering lost work: the bot turns and scorings of matches that sat idle because a
task was lost (a broker that was down, a worker killed). Celery beat runs it
(``games.tasks.sweep_stalled_matches``); the tasks it sends are idempotent, so a match
that was only slow is not harmed."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.matches.models import Match, MatchStatus, Seat
from rules import get_engine


def resume_stalled_matches(*, idle_seconds: float = 30.0) -> dict:
    """Re-enqueue the bot turns and scoring of matches idle for ``idle_seconds``. Safe to
    repeat. Returns counts ``{"bot_turns": n, "scorings": m}``.

    Its cost does not grow with the matches people walked away from (idle, a person to
    act, no clock): those are told apart by ``Match.to_act`` (the engine's answer, written
    with every snapshot) without reading their state: three statements however many
    there are, and one more for the states of the matches where a bot seat is among
    those to act, whose engine is asked again."""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    counts = {"bot_turns": 0, "scorings": 0}
    for match_id in Match.objects.filter(
        status=MatchStatus.SCORING, updated_at__lt=cutoff
    ).values_list("pk", flat=True):
        enqueue_scoring(match_id)
        counts["scorings"] += 1
    idle = dict(Match.objects.filter(
        status=MatchStatus.ACTIVE, updated_at__lt=cutoff, seats__bot_kind__isnull=False
    ).distinct().values_list("pk", "to_act"))
    bots: dict[int, set[int]] = {}
    for match_id, position in Seat.objects.filter(
        match_id__in=list(idle), bot_kind__isnull=False
    ).values_list("match_id", "position"):
        if position in idle[match_id]:
            bots.setdefault(match_id, set()).add(position)
    for match in Match.objects.filter(pk__in=list(bots)).only("pk", "game", "ply", "state"):
        engine = get_engine(match.game)
        to_act = set(engine.to_act(engine.from_json(match.state)))
        for position in sorted(bots[match.pk] & to_act):
            enqueue_bot_turn(match.pk, position, match.ply)
            counts["bot_turns"] += 1
    return counts
