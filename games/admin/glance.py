"""What Django admin shows of a match at a glance: who plays (a seat a bot took over still
names its player: games/boards/labels.py), who is to act, the clocks, the winner and the
result. Plain functions over a match whose seats (with users), incidents (with users) and
results are prefetched (``MatchAdmin.get_queryset``), so the match list stays a fixed
number of queries whatever its length.

Nothing here is hidden information: names, clocks, incidents and results are public.
"""

from __future__ import annotations

from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _

from games.boards.labels import seat_names
from games.matches import clock_selectors
from games.matches.models import Match, MatchStatus
from games.matches.played_rules import engine_of, replayable
from infra.translation import localized
from rules import get_engine


def drawing_legend(game: str) -> list[tuple[str, str]] | None:
    """The board drawing's legend in the request's language, from the game's engine (a new
    game changes nothing here); None when its drawing needs none."""
    return [(localized(label), localized(meaning))
            for label, meaning in get_engine(game).drawing_legend()] or None


def players_text(match: Match) -> str:
    return ", ".join(seat_names(match).values())


def to_act_text(match: Match) -> str:
    if match.status != MatchStatus.ACTIVE or match.state is None or not replayable(match):
        return "-"  # a rules version no engine here plays: nobody can tell (rules/versions.py)
    engine = engine_of(match)
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
        + (_(" (running)") if row["running"] else "") for row in rows)


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
        parts.append(format_html("<p class='winner'>{}: <strong>{}</strong></p>",
                                 _("Winner"), winners_text(match)))
        parts.append(format_html(
            "<table class='result'><tr><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>",
            _("rank"), _("player"), _("score"),
            format_html_join("", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                             ((row.rank, names[row.seat], row.score) for row in rows))))
    elif match.status == MatchStatus.ACTIVE:
        parts.append(format_html("<p>{}: {} &middot; {}: {}</p>", _("To act"),
                                 to_act_text(match), _("Clocks"), clocks_text(match)))
    elif match.status == MatchStatus.ABORTED:
        parts.append(format_html("<p>{}: {}</p>", _("Aborted"), match.abort_reason or "-"))
    incidents = clock_selectors.incidents_of(match)
    if incidents:
        parts.append(format_html("<p>{}: {}</p>", _("Incidents"), ", ".join(
            _("%(kind)s of %(player)s at ply %(ply)s")
            % {"kind": row["kind"], "player": names[row["seat"]], "ply": row["ply"]}
            for row in incidents)))
    return format_html("{}", format_html_join("", "{}", ((part,) for part in parts)))
