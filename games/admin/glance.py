"""What Django admin shows of a match at a glance: who plays, who is to act, the clocks,
the winner and the result, and the replay's seat labels. Plain functions over a match
whose seats (with users) and results are prefetched (``MatchAdmin.get_queryset``), so the
match list stays a fixed number of queries whatever its length.

Nothing here is hidden information: names, clocks, incidents and results are public.
"""

from __future__ import annotations

import re

from django.utils.html import escape, format_html, format_html_join

from games.clocks import selectors as clock_selectors
from games.matches.models import Match, MatchStatus
from rules import get_engine

#: the Hansa board's short labels (rules/hansa/render.py), explained under the drawing
HANSA_LEGEND = [
    ("P3, S2, B1", "a person, ship or building card of the Kontor with its trade power"),
    ("A-H", "top right of a card: its notable-person type (sets score at the end)"),
    ("lux", "a luxury card"),
    ("coloured discs", "luxury pieces (red, blue, yellow, black) and how many a seat holds"),
    ("2nd x2, 3rd x1", "prosperity track: profit multipliers of second and third place"),
    ("> Kontor of ...", "the seat owes a decision now"),
]


def seat_names(match: Match) -> dict[int, str]:
    """Position -> username, "<kind> bot", or "open"."""
    names = {position: "open" for position in range(match.players)}
    for seat in match.seats.all():
        names[seat.position] = (seat.user.username if seat.user_id
                                else f"{seat.bot_kind} bot")
    return names


def players_text(match: Match) -> str:
    return ", ".join(seat_names(match).values())


def to_act_text(match: Match) -> str:
    if match.status != MatchStatus.ACTIVE or match.state is None:
        return "-"
    engine = get_engine(match.game)
    names = seat_names(match)
    return ", ".join(names[seat] for seat in engine.to_act(engine.from_json(match.state)))


def _duration(milliseconds: int) -> str:
    seconds = milliseconds // 1000
    days, rest = divmod(seconds, 86_400)
    hours, rest = divmod(rest, 3600)
    minutes, seconds = divmod(rest, 60)
    if days:
        return f"{days}d {hours}h"
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def clocks_text(match: Match) -> str:
    """``alice 2:31 (running), bob 3:00``; ``-`` without a clock."""
    names = seat_names(match)
    rows = clock_selectors.clocks_of(match)
    if not rows:
        return "-"
    return ", ".join(
        f"{names[row['seat']]} {_duration(row['remaining_ms'])}"
        + (" (running)" if row["running"] else "") for row in rows)


def winners_text(match: Match) -> str:
    if match.status != MatchStatus.FINISHED:
        return "-"
    names = seat_names(match)
    return ", ".join(names[row.seat] for row in match.results.all() if row.rank == 1) or "-"


def outcome_html(match: Match) -> str:
    """The head of the match page: status, winner and the result table (or who is to
    act and the clocks while it runs), with resignations and timeouts."""
    names = seat_names(match)
    parts = [format_html("<p><strong>{}</strong> &middot; {}</p>", match.get_status_display(),
                         players_text(match))]
    if match.status == MatchStatus.FINISHED:
        rows = sorted(match.results.all(), key=lambda row: (row.rank, row.seat))
        parts.append(format_html("<p class='winner'>Winner: <strong>{}</strong></p>",
                                 winners_text(match)))
        parts.append(format_html(
            "<table class='result'><tr><th>rank</th><th>player</th><th>score</th></tr>{}"
            "</table>",
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                             ((row.rank, names[row.seat], row.score) for row in rows))))
    elif match.status == MatchStatus.ACTIVE:
        parts.append(format_html("<p>To act: {} &middot; Clocks: {}</p>", to_act_text(match),
                                 clocks_text(match)))
    elif match.status == MatchStatus.ABORTED:
        parts.append(format_html("<p>Aborted: {}</p>", match.abort_reason or "-"))
    incidents = clock_selectors.incidents_of(match)
    if incidents:
        parts.append(format_html("<p>Incidents: {}</p>", ", ".join(
            f"{row['kind']} of {names[row['seat']]} at ply {row['ply']}" for row in incidents)))
    return format_html("{}", format_html_join("", "{}", ((part,) for part in parts)))


_SEAT_LABEL = re.compile(r"\b([Ss])eat (\d+)\b")
_TEXT_NODE = re.compile(r">([^<]+)<")


def label_seats(svg: str, names: dict[int, str]) -> str:
    """The drawing with "seat N" in its texts replaced by the seat's player name. The
    renderers know seats only (rules/ has no users); names are escaped like their texts."""
    def name(match: re.Match) -> str:
        position = int(match.group(2))
        return escape(names[position]) if position in names else match.group(0)

    return _TEXT_NODE.sub(lambda node: ">" + _SEAT_LABEL.sub(name, node.group(1)) + "<", svg)
