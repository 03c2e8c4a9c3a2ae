"""A record's incidents, replayed with its moves: was each one possible where the record
puts it? (issue 21; docs/records.md "Incidents").

A record listed resignations, timeouts and the rest, but verification only applied the
resignations to the final ranks, so an invented resignation of the seat that ranked last
anyway changed nothing and verified. Now ``IncidentReplay`` walks the incidents in step
with the moves and refuses one that could not have happened, by the same rules the
clock services follow when they write them (games/clocks/services.py):

- nothing happens to a seat once the game is over, or once every seat but one has
  resigned or forfeited (the match ended then, so no move may follow either), but the
  rest of the deadline check that ended it: one check times out every seat whose clock
  ran out, at the same ply, and decides the end after;
- incidents are listed in the order they happened (their plies never go back);
- a resignation, a takeover or a reclaim needs a seat that has not resigned or forfeited;
  a takeover a seat its player holds; a reclaim a seat taken over;
- a timeout needs a clock, a seat that owed a decision then (only those clocks run) and
  that its player held, and is followed at once by the clock's policy: a takeover, or a
  forfeit under the forfeit policy; a forfeit comes only so;
- time is added only to a clock.

What they change at the end (the ranks, ``forfeits``, ``timeouts``) is compared with the
stated result by the verifier (games/records/services.py).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games.matches.incidents import FORFEIT_KINDS, IncidentKind
from games.matches.outcome import ended_early
from games.matches.time_controls import FORFEIT, NONE, TAKEOVER

#: what a timeout is followed by, by the clock's timeout policy
FOLLOW_UP = {TAKEOVER: IncidentKind.TAKEOVER, FORFEIT: IncidentKind.FORFEIT}


class IncidentReplay:
    """The incidents of one record, consumed ply by ply while its moves are replayed."""

    def __init__(self, engine, players: int, incidents: list, time_control: dict | None
                 ) -> None:
        self.engine, self.players, self.incidents = engine, players, incidents
        #: None when the record does not say (a record from before the field)
        self.clock = None if time_control is None else time_control.get("kind", NONE)
        self.policy = None if time_control is None else time_control.get("timeout_policy",
                                                                          TAKEOVER)
        self.next = 0
        self.forfeited: list[int] = []  # resigned or forfeited, first to go first
        self.taken_over: set[int] = set()  # held by a bot until their player reclaims them
        #: the ply of the deadline check whose forfeit ended the match, if one did
        self.ended_by_timeouts_at: int | None = None

    @property
    def match_ended(self) -> bool:
        """Every seat but one has resigned or forfeited: the match ended there."""
        return ended_early(self.players, self.forfeited)

    def happen(self, ply: int, state: Any) -> str | None:
        """Apply every incident at ``ply`` (``state``: the game after ``ply`` moves); the
        reason the first impossible one could not happen, or None."""
        while self.next < len(self.incidents) and self.incidents[self.next].ply <= ply:
            index = self.next
            incident = self.incidents[index]
            where = _("incidents[%(index)s] (%(kind)s of seat %(seat)s at ply %(ply)s)") % {
                "index": index, "kind": incident.kind, "seat": incident.seat,
                "ply": incident.ply}
            if incident.ply < ply:
                return _("%(where)s is listed after an incident of a later ply: incidents are "
                         "listed in the order they happened.") % {"where": where}
            problem = self._impossible(index, incident, state)
            if problem is not None:
                return _("%(where)s could not happen: %(problem)s") % {"where": where,
                                                                      "problem": problem}
            self._apply(incident)
            self.next += 1
        return None

    def _impossible(self, index: int, incident, state: Any) -> str | None:
        seat, kind = incident.seat, incident.kind
        if self.engine.is_over(state):
            return _("the game was over.")
        previous = self.incidents[index - 1] if index else None
        after_timeout = (previous is not None and previous.kind == IncidentKind.TIMEOUT
                         and (previous.ply, previous.seat) == (incident.ply, seat))
        same_check = (incident.ply == self.ended_by_timeouts_at
                      and (kind == IncidentKind.TIMEOUT or after_timeout))
        if self.match_ended and not same_check:
            return _("the match had ended (every seat but one had resigned or forfeited).")
        if kind == IncidentKind.TIME_ADDED:
            return _("the match has no clock.") if self.clock == NONE else None
        if kind == IncidentKind.TIMEOUT:
            return self._impossible_timeout(index, incident, state)
        if seat in self.forfeited:
            return _("seat %(seat)s had already resigned or forfeited.") % {"seat": seat}
        if kind == IncidentKind.FORFEIT and not (
                after_timeout and self.policy in (FORFEIT, None)):
            return _("a forfeit only follows its seat's timeout under the forfeit policy.")
        if kind == IncidentKind.TAKEOVER and seat in self.taken_over:
            return _("seat %(seat)s was already held by a bot.") % {"seat": seat}
        if kind == IncidentKind.RECLAIM and seat not in self.taken_over:
            return _("seat %(seat)s had no takeover to answer.") % {"seat": seat}
        return None

    def _impossible_timeout(self, index: int, incident, state: Any) -> str | None:
        seat = incident.seat
        if self.clock == NONE:
            return _("the match has no clock.")
        if seat in self.forfeited or seat in self.taken_over:
            return _("seat %(seat)s was held by a bot, whose clock never runs.") % {"seat": seat}
        if seat not in self.engine.to_act(state):
            return _("seat %(seat)s owed no decision, so its clock was not running.") % {
                "seat": seat}
        follow = self.incidents[index + 1] if index + 1 < len(self.incidents) else None
        expected = {FOLLOW_UP[self.policy]} if self.policy in FOLLOW_UP else set(
            FOLLOW_UP.values())
        if follow is None or (follow.ply, follow.seat) != (incident.ply, seat) \
                or follow.kind not in expected:
            return _("a timeout is followed at once by its seat's %(follow_up)s.") % {
                "follow_up": " / ".join(sorted(expected))}
        return None

    def _apply(self, incident) -> None:
        if incident.kind in FORFEIT_KINDS:
            ended_before = self.match_ended
            self.forfeited.append(incident.seat)
            self.taken_over.discard(incident.seat)
            if self.match_ended and not ended_before and incident.kind == IncidentKind.FORFEIT:
                self.ended_by_timeouts_at = incident.ply  # a forfeit follows a timeout
        elif incident.kind == IncidentKind.TAKEOVER:
            self.taken_over.add(incident.seat)
        elif incident.kind == IncidentKind.RECLAIM:
            self.taken_over.discard(incident.seat)

    def timeouts(self) -> list[int]:
        """The seats that timed out, in order (what the result's ``timeouts`` lists)."""
        return [incident.seat for incident in self.incidents
                if incident.kind == IncidentKind.TIMEOUT]
