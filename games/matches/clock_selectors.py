"""Reads of clocks and incidents for the match payloads (REST, GraphQL, admin, pushes).

Nothing here is hidden information: clocks, resignations and timeouts are public.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from games.matches import seat_clock
from games.matches.claims import reclaimable_position
from games.matches.incidents import FORFEIT_KINDS, Incident, IncidentKind
from games.matches.models import Match, MatchStatus
from games.matches.time_controls import NONE, PRESETS, kind_of


def time_control_of(match: Match) -> dict:
    """The match's time control as stored (``{"preset": "none", "kind": "none"}`` for
    matches without a clock, older ones included)."""
    if kind_of(match.time_control) == NONE:
        return {"preset": "none", **PRESETS["none"]}
    return dict(match.time_control)


def clocks_of(match: Match, now: datetime | None = None) -> list[dict]:
    """Each seat's clock: ``{"seat", "remaining_ms", "running", "deadline"}``, the
    remaining time counted down to ``now``; empty for a match without a clock. Clocks run
    only while the match is active."""
    if kind_of(match.time_control) == NONE or not match.clocks:
        return []
    now = now or timezone.now()
    active = match.status == MatchStatus.ACTIVE
    rows = []
    for position, each in enumerate(match.clocks):
        running = active and seat_clock.running_since(each) is not None
        rows.append({
            "seat": position,
            "remaining_ms": seat_clock.remaining_ms(each, now) if running else
            int(each["remaining_ms"]),
            "running": running,
            "deadline": seat_clock.deadline(each) if running else None,
        })
    return rows


def incident_rows(match: Match) -> list[Incident]:
    """The match's incidents in id order (``Incident.Meta.ordering``), for ``incidents_of``
    and ``reclaimable_seat`` to share: one query, or none when ``games.matches.rows`` loaded
    them with the match (the prefetch cache)."""
    return list(match.incidents.all())


def incidents_of(match: Match, rows: list[Incident] | None = None) -> list[dict]:
    """The match's incidents in order: ``{"ply", "seat", "kind", "user", "bot_kind",
    "seconds", "created_at"}``. ``user``: the player it happened to (who resigned, timed
    out, was taken over, reclaimed), None for added time; who did it as an admin is not
    shown to players."""
    return [
        {"ply": row.ply, "seat": row.seat, "kind": row.kind,
         "username": row.user.username if row.user_id is not None else None,
         # deprecated alias of username (issue 41: one name for a player)
         "user": row.user.username if row.user_id is not None else None,
         "bot_kind": row.bot_kind or None, "seconds": row.seconds, "created_at": row.created_at}
        for row in (incident_rows(match) if rows is None else rows)
    ]


def reclaimable_seat(match: Match, user, rows: list[Incident] | None = None) -> int | None:
    """The seat a bot holds for ``user`` that they may take back with reclaim, while the
    match is played; None otherwise. The rule is ``games.matches.claims``, which the reclaim
    endpoint applies too."""
    if match.status != MatchStatus.ACTIVE or not getattr(user, "is_authenticated", False):
        return None
    return reclaimable_position(user.pk, list(match.seats.all()),
                                incident_rows(match) if rows is None else rows)


def result_incidents(match: Match) -> dict:
    """For the result: ``forfeits`` (seats that resigned or forfeited, ranked last, first
    to go first) and ``timeouts`` (seats whose clock ran out, with the policy applied),
    each ``{"seat", "kind", "ply"}``; ratings count both as losses."""
    rows = list(Incident.objects.filter(match_id=match.pk, kind__in=[
        *FORFEIT_KINDS, IncidentKind.TIMEOUT]).order_by("id"))
    forfeits, seen = [], set()
    for row in rows:
        if row.kind in FORFEIT_KINDS and row.seat not in seen:
            seen.add(row.seat)
            forfeits.append({"seat": row.seat, "kind": row.kind, "ply": row.ply})
    timeouts = [{"seat": row.seat, "kind": row.kind, "ply": row.ply}
                for row in rows if row.kind == IncidentKind.TIMEOUT]
    return {"forfeits": forfeits, "timeouts": timeouts}
