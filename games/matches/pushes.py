"""What a play-socket reader is sent about a match: the ``sync`` and ``update`` bodies
(docs/play.md), built for one reader from objects already loaded, and a move's bodies for
every seat at once (``move_pushes``), built where the move was made.

Everything shown goes through the selectors REST and GraphQL use (``seat_of``,
``to_act_and_view``, ``logged_entry``, the clocks' selectors), so a push never shows a
reader more than ``GET /api/v1/matches/{id}/events/`` would. The builders take the match
with its seats and incidents loaded, the engine state, and the logged moves to show, so
the mover's own process can push straight from what the move service returns (no read),
and the other processes from one read per match and ply (``load_since``).

The bodies are data; the play socket (games/play/) encodes them as its frames, except a
move's pushes: each seat's ``update`` frame is encoded once where the move was made, and
every process that follows the match forwards that text as it is (``move_pushes``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.clocks import selectors as clock_selectors
from games.matches import selectors
from games.matches.models import Match, MatchStatus, Move
from games.matches.parsing import parse_ply
from games.matches.play_announcements import PLAY_PUSHES_TYPE
from infra import wire
from infra.observability import request_id
from rules import get_engine


def match_body(match: Match, state: Any, moves: Iterable[Move], user, since: int) -> dict:
    """The body of a ``sync``/``update`` for ``user`` (None: a spectator): the match now,
    the moves from ply ``since`` (the caller passes exactly those), the reader's view and,
    when the reader's seat owes a decision, its legal moves."""
    return seat_body(match, state, moves, selectors.seat_of(match, user), since)


def seat_body(match: Match, state: Any, moves: Iterable[Move], seat: int | None,
              since: int) -> dict:
    """``match_body`` for whoever holds ``seat`` (None: a spectator): what a reader is
    shown depends on their seat only."""
    engine = get_engine(match.game)
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


def move_pushes(match: Match, state: Any, move: Move) -> dict:
    """A move's ``update`` frames, one per seat and one for spectators, as the
    ``PLAY_PUSHES_TYPE`` message to the play hubs: built and encoded once where the move
    was made (a play socket's process, or the worker that played a bot's move), so no
    process that follows the match reads it again, nor decodes and encodes it again: a
    hub sends each follower the text of its seat (games/play/hub.py). ``match`` is the
    match after the move, with its seats and users loaded
    (``services.SubmittedMove.match``)."""
    return _pushes(match, state, [move], since=move.ply)


def status_pushes(match: Match, state: Any) -> dict:
    """``move_pushes`` for a change without a move (the scoring that finishes a match:
    games/matches/finishing.py): each seat's ``update`` at the match's ply, carrying its
    new status and no moves. A hub sends it to a follower sent that ply with another
    status, once."""
    return _pushes(match, state, [], since=match.ply)


def _pushes(match: Match, state: Any, moves: list[Move], since: int) -> dict:
    caused = caused_by()
    frames = {seat_key(seat): wire.frame("update", **seat_body(match, state, moves, seat,
                                                               since), **caused)
              for seat in [*range(match.players), None]}
    return {"type": PLAY_PUSHES_TYPE, "match_id": match.pk, "since": since,
            "ply": match.ply, "status": match.status, "frames": frames,
            "request_id": request_id.current()}


def caused_by(cause: str | None = None) -> dict:
    """The ``request_id`` field of an ``update``: the request whose change it shows
    (``cause``, else the one being served here), or nothing when none is known (a change
    found by the resync check)."""
    cause = cause or request_id.current()
    return {"request_id": cause} if cause else {}
