"""The games waiting for a player: active matches where one of their seats owes a
decision (``to_act``, the match lists' my_turn filter: games.matches.selectors), earliest
deadline of their own seat first, matches without a running clock last."""

from __future__ import annotations

from datetime import datetime

from games.matches import seat_clock
from games.matches.models import Match
from games.matches.selectors import my_turn_q
from games.matches.time_controls import kind_of
from infra.timestamps import utc_iso


def games_waiting_for(user) -> list[dict]:
    """One row per match waiting for ``user``: ``match_id``, ``game``, ``players``,
    ``ply``, ``seat``, ``time_control`` (its kind: none, realtime, turn_based) and
    ``deadline`` (ISO 8601 UTC, null without a running clock), ordered by deadline (none
    last), then by match id. Public facts only."""
    matches = (Match.objects.filter(my_turn_q(user))  # games/matches/selectors.py
               .only("id", "game", "players", "ply", "to_act", "clocks", "time_control")
               .prefetch_related("seats"))
    rows = []
    for match in matches:
        seat = next(seat.position for seat in match.seats.all() if seat.user_id == user.pk)
        clock = match.clocks[seat] if seat < len(match.clocks) else {}
        deadline = seat_clock.deadline(clock) if clock else None
        rows.append((deadline, match.pk, {
            "match_id": match.pk, "game": match.game, "players": match.players,
            "ply": match.ply, "seat": seat, "time_control": kind_of(match.time_control),
            "deadline": utc_iso(deadline)}))
    rows.sort(key=lambda row: (row[0] is None, row[0] or datetime.min, row[1]))
    return [row for _deadline, _pk, row in rows]
