"""Recovering lost work: the bot turns and scorings of matches that sat idle because a
task was lost (a broker that was down, a worker killed). Celery beat runs it
(``games.tasks.sweep_stalled_matches``); the tasks it sends are idempotent, so a match
that was only slow is not harmed."""

from __future__ import annotations

import logging
from datetime import timedelta

from django.contrib.postgres.fields import ArrayField
from django.db import models
from django.db.models import F, Func
from django.utils import timezone

from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.matches.models import Match, MatchStatus, Seat
from games.matches.played_rules import engine_of, replayable

logger = logging.getLogger(__name__)


def resume_stalled_matches(*, idle_seconds: float = 30.0) -> dict:
    """Re-enqueue the bot turns and scoring of matches idle for ``idle_seconds``. Safe to
    repeat. Returns counts ``{"bot_turns": n, "scorings": m}``.

    Its cost does not grow with the matches people walked away from (idle, a person to
    act, no clock), which only ever accumulate: PostgreSQL tells them apart by
    ``Match.to_act`` (the engine's answer, written with every snapshot), so none of them
    is read. Three statements: the scoring candidates, the bot seats among those to act in
    idle matches, and the states of those matches, whose engine is asked again. (Reading
    every idle match with a bot seat into the worker instead took 0.34 s of CPU with
    10,500 of them, once a minute, and held up the bots' turns meanwhile.)"""
    cutoff = timezone.now() - timedelta(seconds=idle_seconds)
    counts = {"bot_turns": 0, "scorings": 0}
    for match_id in Match.objects.filter(
        status=MatchStatus.SCORING, updated_at__lt=cutoff
    ).values_list("pk", flat=True):
        enqueue_scoring(match_id)
        counts["scorings"] += 1
    bots: dict[int, set[int]] = {}
    for match_id, position in Seat.objects.filter(
        bot_kind__isnull=False, match__status=MatchStatus.ACTIVE,
        match__updated_at__lt=cutoff, match__to_act__contains=_one_element_array("position"),
    ).values_list("match_id", "position"):
        bots.setdefault(match_id, set()).add(position)
    for match in Match.objects.filter(pk__in=list(bots)).only("pk", "game", "rules_version",
                                                              "ply", "state"):
        if not replayable(match):
            # played under rules no engine here plays (rules/versions.py): its bots cannot
            # move, and one such match must not stop the sweep of every other
            logger.warning("match %s: %s rules version %r is not kept; its bots wait",
                           match.pk, match.game, match.rules_version)
            continue
        engine = engine_of(match)
        to_act = set(engine.to_act(engine.from_json(match.state)))
        for position in sorted(bots[match.pk] & to_act):
            enqueue_bot_turn(match.pk, position, match.ply)
            counts["bot_turns"] += 1
    return counts


def _one_element_array(field: str) -> Func:
    """``ARRAY[field]``: the seat's position as an array, for ``to_act @> ARRAY[position]``."""
    return Func(F(field), template="ARRAY[%(expressions)s]",
                output_field=ArrayField(models.PositiveSmallIntegerField()))
