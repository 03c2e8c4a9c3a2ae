"""The invitees' place in a match's chat (docs/chat.md "Invitees"): while a match waits
for its players (``open``), whoever holds a pending invitation to it, a private match's or
any other's (games/lobby/), reads and writes its players' room as a seated player does, so
the table can talk before it is complete ("are you coming?"). Nothing of a game is secret
before it starts. Once the match starts, an invitee who took no seat is a spectator like
anyone else: the players' room closes to them; one who declined, or whose invitation was
withdrawn, is one already.

The players' room serves, rather than a third room: an invitee's talk is the table's talk,
and what they said stays in the room the players keep.
"""

from __future__ import annotations

from games.lobby.models import Invitation, InvitationStatus
from games.matches.models import Match, MatchStatus


def invitee_ids(match: Match) -> list[int]:
    """Who holds a pending invitation to ``match`` while it waits for players; nobody
    once it has started."""
    if match.status != MatchStatus.OPEN:
        return []
    return list(Invitation.objects.filter(match_id=match.pk, status=InvitationStatus.PENDING)
                .values_list("invitee_id", flat=True))
