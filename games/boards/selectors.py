"""The board of a match as a reader may see it: the engine's drawing (``render_svg``) of
that reader's view, labelled with the players' names and readable by a screen reader.

Who sees what is the rule of every other read (games/matches/selectors.py): while the
match runs a seated user sees their own seat's view (their hand, never another's), anyone
else the spectator's; once it has ended everyone sees everything, at every ply
(``engine.full_view``: every hand and face-down card, as the replay's ``state`` shows).
Nothing else reaches the renderer, so nothing hidden can be drawn.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.boards import accessible
from games.boards.errors import NoBoardDrawing
from games.boards.labels import label_seats, seat_names
from games.matches import errors, selectors
from games.matches.models import ENDED_STATUSES, Match
from games.matches.parsing import parse_ply
from games.matches.played_rules import engine_of
from games.matches.replay import replay_state


def board_ply(match: Match, ply: Any) -> int:
    """The ply to draw: ``ply`` from a request (default the latest). Raises
    MatchNotActive (409) before the start, InvalidPly (400)."""
    if match.state is None:
        raise errors.MatchNotActive(_("The match has not started: there is no board yet."))
    return match.ply if ply is None else parse_ply(ply, upper=match.ply)


def board_svg(match: Match, user=None, ply: Any = None, *, state: Any = None) -> str:
    """The SVG of ``match`` after ``ply`` moves (the latest when None) as ``user`` may see
    it, with the seats' names, a ``<title>`` and a ``<desc>``. ``state``: the engine state
    at that ply, when the caller has it (admin's replay walks the log itself). Raises
    MatchNotActive (409) before the start, InvalidPly (400), NoBoardDrawing (404) for a
    game that draws none."""
    ply = board_ply(match, ply)
    engine = engine_of(match)
    if state is None:
        state = selectors.state_of(match) if ply == match.ply else replay_state(match, ply)
    ended = match.status in ENDED_STATUSES
    seat = None if ended else selectors.seat_of(match, user)
    view = engine.full_view(state) if ended else engine.view(state, seat)
    drawing = engine.render_svg(view, translate=_)  # its labels in the request's language
    if drawing is None:
        raise NoBoardDrawing(details={"game": match.game})
    names = seat_names(match)
    drawing = label_seats(drawing, names)
    title = _title(_(engine.title), ply, match.ply, ended, seat, names)
    description = _("What the picture shows: %(texts)s.") % {
        "texts": ". ".join(accessible.drawn_texts(drawing))}
    return accessible.with_title(drawing, title, description, get_language() or "en")


def _title(game: str, ply: int, plies: int, ended: bool, seat: int | None,
           names: dict[int, str]) -> str:
    where = {"game": game, "ply": ply, "plies": plies}
    if ended:
        return _("%(game)s after ply %(ply)s of %(plies)s, everything shown: the match has "
                 "ended") % where
    if seat is None:
        return _("%(game)s after ply %(ply)s of %(plies)s, as a spectator sees it") % where
    return _("%(game)s after ply %(ply)s of %(plies)s, as %(name)s (seat %(seat)s) sees "
             "it") % {**where, "name": names[seat], "seat": seat}
