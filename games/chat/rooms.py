"""Who may read and write each room of a match (docs/chat.md "Rooms"): one rule, used by
REST when it lists and accepts messages and by the play hub when it pushes one, so no
transport shows a room to anyone the others would refuse.

- the players' room: the seated players read and write it; once the match has ended its
  spectators read it too (nobody can be helped any more). A player whose seat passed to
  a bot is a spectator from then on: they stop reading it while the match runs;
- the spectators' room: whoever may see the match reads it and, signed in, writes it;
  the players read (and write) it while the match runs only when the match allows (its
  fixed option ``Match.players_read_spectator_chat``, passed here as
  ``readable_by_players``: games/matches/spectator_chat.py, on for a listed match and off
  for a private one by default), and always once it has ended.

A "seat" is the seat a user holds now, as the database has it (``seat_of``), or held at a
message's commit for a push (``games.live.frames.holders``): never what a process
remembers.
"""

from __future__ import annotations

from games.chat.models import RoomKind
from games.matches.models import ENDED_STATUSES


def is_ended(status: str) -> bool:
    return status in ENDED_STATUSES


def reads(kind: str, *, seated: bool, ended: bool, readable_by_players: bool) -> bool:
    """Whether a reader (``seated``: holds a seat of the match) may read a room of kind
    ``kind``; everyone concerned may see the match (a caller checks that first)."""
    if kind == RoomKind.PLAYERS:
        return seated or ended
    return not seated or ended or readable_by_players


def writes(kind: str, *, signed_in: bool, seated: bool, ended: bool,
           readable_by_players: bool) -> bool:
    """Whether a reader may write into the room: a signed-in one, into the players' room
    only from a seat, into the spectators' room when they may read it."""
    if not signed_in:
        return False
    if kind == RoomKind.PLAYERS:
        return seated
    return reads(kind, seated=seated, ended=ended, readable_by_players=readable_by_players)


def receives(audience: dict, user) -> bool:
    """Whether a play socket's ``user`` is sent a message pushed with ``audience`` (built
    at the commit by ``games.chat.services.audience``: the room's kind, the match's status
    then, the seat holders then, who muted its author)."""
    if getattr(user, "is_authenticated", False) and user.pk in audience["muted_by"]:
        return False  # a muted author reaches nobody who muted them (games/chat/mutes.py)
    # a seat holder, or an invitee of a match still waiting (games/chat/invitees.py)
    seated = (getattr(user, "is_authenticated", False)
              and (str(user.pk) in audience["holders"]
                   or user.pk in audience.get("invitees", ())))
    return reads(audience["room"], seated=bool(seated), ended=audience["ended"],
                 readable_by_players=audience["readable_by_players"])


def table_readers(audience: dict, author_id: int | None) -> list[int]:
    """The ids of the users at the table (seat holders, a waiting match's pending
    invitees) that a message pushed with ``audience`` reaches, neither its author nor
    anyone who muted the author: who an app's webhook and a player's own channels tell
    of it. The spectators' room's other readers are anyone at all and are not listed."""
    if not reads(audience["room"], seated=True, ended=audience["ended"],
                 readable_by_players=audience["readable_by_players"]):
        return []
    table = {int(user_id) for user_id in audience["holders"]} | set(audience.get("invitees", ()))
    return sorted(table - {author_id} - set(audience["muted_by"]))
