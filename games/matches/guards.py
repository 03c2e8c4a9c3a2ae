"""The checks and the lock every writer of a match starts with: who is asking, whether
they may, which match (locked), which seat, which bot kind.

Shared by the move service (games/matches/services.py), the match services of this package, and
the clocks, lobby and quick-match services, so that each refuses the same mistake with
the same error. Each function raises a ``games.matches.errors`` error before anything is written.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from games.matches import errors
from games.matches.models import Match, MatchStatus, Seat
from games.matches.parsing import parse_match_id
from games.matches.permissions import can_manage_matches
from games.matches.rows import load_match
from infra.numbers import whole_number
from rules.bots import BOT_KINDS


def require_user(user) -> None:
    """AuthenticationRequired (401) unless ``user`` is signed in."""
    if user is None or not getattr(user, "is_authenticated", False):
        raise errors.AuthenticationRequired()


def require_admin(user, what: str) -> None:
    """AuthenticationRequired, or NotAllowed naming ``what`` only an admin may do. An
    admin holds a model permission (or is a superuser), never is_staff alone:
    games/matches/permissions.py."""
    require_user(user)
    if not can_manage_matches(user):
        raise errors.NotAllowed(_("Only an admin can %(what)s.") % {"what": what})


def lock_match(match_id: Any) -> Match:
    """Lock the match row for this transaction (docs/architecture.md, "Writing a move", step 1).
    Raises MatchNotFound (404)."""
    pk = parse_match_id(match_id)
    try:
        return Match.objects.select_for_update().get(pk=pk)
    except Match.DoesNotExist:
        raise errors.MatchNotFound(details={"match_id": pk}) from None


def refuse_outsider(match_id: Any, user) -> None:
    """Why ``user`` may not take the match's lock, read without it: MatchNotFound (404),
    or for a user who holds no seat of it MatchNotActive or NotSeated (the errors, in the
    order, the locked checks give). So an outsider is refused at once and never queues
    behind the lock a seated player's move holds (issue 40: anyone could wait on any
    match). Returns quietly for a seated user."""
    pk = parse_match_id(match_id)
    row = (Match.objects.filter(pk=pk)
           .annotate(seated=Exists(Seat.objects.filter(match=OuterRef("pk"), user_id=user.pk)))
           .values_list("status", "seated").first())
    if row is None:
        raise errors.MatchNotFound(details={"match_id": pk})
    status, seated = row
    if not seated:
        if status != MatchStatus.ACTIVE:
            raise errors.MatchNotActive(details={"status": status})
        raise errors.NotSeated()


def lock_match_to_play(match_id: Any, user=None) -> Match:
    """``lock_match`` that also loads what the move's answer shows, in the same statement
    (games/matches/rows.py): the creator, the seats with their users and the incidents, so
    the caller can answer from this object after the commit instead of reading the match
    again (issue 14). Only the match row is locked; seats and incidents change only under
    that same lock. With ``user``, the lock is taken only if they hold a seat; anyone
    else gets the error ``refuse_outsider`` gives, without waiting on the lock."""
    pk = parse_match_id(match_id)
    if user is not None:
        # the lock only for a seated user: anyone else is answered without waiting on it
        match = load_match(pk, lock=True, seated_user_id=user.pk)
        if match is not None:
            return match
        refuse_outsider(pk, user)  # the reason, read without the lock
        # seated between the two reads (a seat just taken): the ordinary lock
    match = load_match(pk, lock=True)
    if match is None:
        raise errors.MatchNotFound(details={"match_id": pk})
    return match


def check_position(match: Match, position: Any) -> int:
    """``position`` as a seat of ``match``, or InvalidSeat (400)."""
    number = whole_number(position)  # ASCII digits only, like a match id
    if number is None:
        raise errors.InvalidSeat(_("A seat position must be a whole number."))
    if not 0 <= number < match.players:
        raise errors.InvalidSeat(
            _("Seat positions of this match run from 0 to %(last)s.") % {"last": match.players - 1},
            details={"position": number, "players": match.players},
        )
    return number


def check_bot_kind(kind: Any) -> str:
    """``kind`` if it names a bot, or UnknownBotKind (400)."""
    if kind not in BOT_KINDS:
        raise errors.UnknownBotKind(
            _("No bot kind %(kind)r; choose one of %(kinds)s.")
            % {"kind": str(kind)[:40], "kinds": ", ".join(BOT_KINDS)},
            details={"bot_kinds": list(BOT_KINDS)},
        )
    return kind


def free_positions(match: Match, seats: list | None = None) -> list[int]:
    """The positions of ``match`` nobody (person or bot) holds, lowest first: one query,
    or none when the caller holds the match's ``seats`` already."""
    taken = {seat.position for seat in seats} if seats is not None \
        else set(match.seats.values_list("position", flat=True))
    return [position for position in range(match.players) if position not in taken]
