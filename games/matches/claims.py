"""Which seat a bot holds for a player who may take it back: the one rule behind the match
detail's ``reclaimable_seat`` (games.matches.clock_selectors), ``POST .../reclaim/`` and the
admin's hand-back (games.clocks.services), so the field never offers what the endpoint
refuses, nor the other way round; and which seat is a player's to resign from
(``owned_position``), read from the same hand-overs. Pure: seats and incidents in, no
database.

The rule (docs/clocks.md "Taking a seat back"): a player's latest hand-over decides. Only a
takeover (their clock ran out, or an admin handed the seat to a bot) leaves a seat to take
back, once: the reclaim that answers it spends it, so a seat later given to a bot for good
(an admin's ``hand_seat_to_bot`` for good, which records no takeover) is not theirs to take.
A resignation or a forfeit ends the claim for good.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.matches.incidents import FORFEIT_KINDS, IncidentKind
from games.matches.outcome import forfeit_order

#: the incidents that take a seat from its player or give it back to them
HAND_OVER_KINDS = (IncidentKind.TAKEOVER, IncidentKind.RECLAIM, *FORFEIT_KINDS)


def last_hand_over(user_id: int, incidents: Iterable):
    """The latest incident (in log order) that took a seat from ``user_id`` or gave it
    back; None when no seat of theirs ever changed hands."""
    last = None
    for incident in incidents:
        if incident.user_id == user_id and incident.kind in HAND_OVER_KINDS:
            last = incident
    return last


def owned_position(user_id: int, seats: list, incidents: list) -> int | None:
    """The seat ``user_id`` plays, or last played before a bot took it, they resigned or
    forfeited (a resignation names the seat they give up); None when they never sat, or
    reclaimed a seat and then lost it for good."""
    for seat in seats:
        if seat.user_id == user_id:
            return seat.position
    last = last_hand_over(user_id, incidents)
    return None if last is None or last.kind == IncidentKind.RECLAIM else last.seat


def reclaimable_position(user_id: int, seats: list, incidents: list) -> int | None:
    """The seat a bot holds for ``user_id`` that they may take back, or None: they hold a
    seat, their latest hand-over is not a takeover (none, reclaimed already, resigned,
    forfeited), or the seat is no longer a bot's or has forfeited. Whether the match is
    still being played is the caller's check (it has its own error)."""
    if any(seat.user_id == user_id for seat in seats):
        return None
    last = last_hand_over(user_id, incidents)
    if last is None or last.kind != IncidentKind.TAKEOVER:
        return None
    seat = next((seat for seat in seats if seat.position == last.seat), None)
    if seat is None or seat.user_id is not None or last.seat in forfeit_order(incidents):
        return None
    return last.seat
