"""What each reader of a match is sent: the ``sync`` and ``update`` bodies of the play
socket (docs/play.md), built for one reader from objects already loaded, and a change's
frames for every seat at once (``change_frames``), built once where the change was made.

Everything shown goes through the selectors REST and GraphQL use (``seat_of``,
``to_act_and_view``, ``logged_entry``, the clocks' selectors), so a push never shows a
reader more than ``GET /api/v1/matches/{id}/events/`` would. The builders take the match
with its seats and incidents loaded, the engine state, and the logged moves to show, so
the committing process can push straight from what the writer had in hand (no read), and
the other processes from one read per match and ply (``load_since``).

What a reader is shown depends on their seat only, and their seat is the database's
answer at the change, never what a process remembers: a change's frames carry the seat
each user held then (``holders``), and a process picks each follower's frame by it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.live.channels import PLAY_PUSHES_TYPE
from games.matches import clock_selectors, selectors
from games.matches.models import Match, MatchStatus, Move
from games.matches.parsing import parse_ply
from games.matches.played_rules import engine_of
from infra import wire
from infra.observability import request_id


def match_body(match: Match, state: Any, moves: Iterable[Move], user, since: int) -> dict:
    """The body of a ``sync``/``update`` for ``user`` (None: a spectator): the match now,
    the moves from ply ``since`` (the caller passes exactly those), the reader's view and,
    when the reader's seat owes a decision, its legal moves."""
    return seat_body(match, state, moves, selectors.seat_of(match, user), since)


def seat_body(match: Match, state: Any, moves: Iterable[Move], seat: int | None,
              since: int) -> dict:
    """``match_body`` for whoever holds ``seat`` (None: a spectator): what a reader is
    shown depends on their seat only."""
    engine = engine_of(match)
    to_act, view = selectors.to_act_and_view(match, seat, state)
    legal = None
    if match.status == MatchStatus.ACTIVE and seat is not None and seat in to_act:
        legal = engine.legal_moves(state, seat)
    rows = clock_selectors.incident_rows(match)
    return {
        "match": str(match.pk),
        "since": since,
        "ply": match.ply,
        "status": match.status,
        "to_act": to_act,
        "seat": seat,
        "seats": selectors.seats_of(match),
        "moves": [selectors.logged_entry(match, engine, move, seat) for move in moves],
        "view": view,
        "legal_moves": legal,
        "clocks": clock_selectors.clocks_of(match),
        "incidents": clock_selectors.incidents_of(match, rows),
    }


def load_since(match_id: int, since: int) -> tuple[Match, Any, list[Move]]:
    """The match (seats, users and incidents loaded, one statement), its state and its
    logged moves from ply ``since`` to its ply (one statement): what every reader of one
    process needs to be brought up to date."""
    match = selectors.get_match(match_id)
    moves = list(Move.objects.filter(match_id=match.pk, ply__gte=since, ply__lt=match.ply)
                 .order_by("ply"))
    return match, selectors.state_of(match), moves


def since_for(match: Match, requested: int | None) -> int:
    """The ply a ``subscribe`` starts from: the client's ``since`` (its last ply), or the
    current ply when it has none (the view is whole; the past is in the REST log).
    Raises InvalidPly (400) for a ply beyond the match's."""
    if requested is None:
        return match.ply
    return parse_ply(requested, upper=match.ply, name="since")


#: the key of the spectators' body in a ``move_pushes`` message (seats are "0", "1", ...)
SPECTATOR = "-"


def seat_key(seat: int | None) -> str:
    return SPECTATOR if seat is None else str(seat)


def holders(match: Match) -> dict[str, int]:
    """Who holds which seat now: user id (as text, JSON's keys) -> position, for the seats
    users hold (a bot's seat, or one nobody holds, has no entry: its reader is a
    spectator). ``match``'s seats are loaded."""
    return {str(seat.user_id): seat.position for seat in match.seats.all()
            if seat.user_id is not None}


def change_frames(match: Match, state: Any, moves: list[Move], since: int) -> dict:
    """A change's ``update`` frames, one per seat and one for spectators, as the
    ``PLAY_PUSHES_TYPE`` message to the play hubs: built and encoded once where the change
    was made (the process that committed a move, or the worker that played a bot's move or
    scored the match), so no process that follows the match reads it again, nor encodes it
    again: a hub sends each follower the text of the seat ``holders`` gives its user
    (games/play/hub.py). ``moves``: the logged moves from ply ``since`` (a move: itself;
    the end of a match: none, ``since`` its ply). ``match`` has its seats and users
    loaded."""
    caused = caused_by()
    frames = {seat_key(seat): wire.frame("update", **seat_body(match, state, moves, seat,
                                                               since), **caused)
              for seat in [*range(match.players), None]}
    return {"type": PLAY_PUSHES_TYPE, "match_id": match.pk, "since": since,
            "ply": match.ply, "status": match.status, "frames": frames,
            "holders": holders(match), "request_id": request_id.current()}


def caused_by(cause: str | None = None) -> dict:
    """The ``request_id`` field of an ``update``: the request whose change it shows
    (``cause``, else the one being served here), or nothing when none is known (a change
    found by the resync check)."""
    cause = cause or request_id.current()
    return {"request_id": cause} if cause else {}
