"""The one event a match's writers emit: ``MatchChanged``, what changed in one commit.

Every service that writes a match (a move, a start, a seat taken, left or handed to a bot,
a clock, the end) calls ``record_change`` inside its transaction, once, with what it has in
hand. Two kinds of receiver take it, each connected once at start-up (games/apps.py), so no
caller can change what a service does:

- ``within`` receivers run at once, inside the writer's transaction, under the match's
  lock: rows that must land with the change or not at all (the ratings a scoring moves,
  the players' feed events); one that raises rolls the change back. They
  may add group messages to ``MatchChanged.group_messages``, which go out after the commit
  with the match's own (one round trip to Redis for all of them);
- ``after_commit`` receivers run once the transaction has committed, in the committing
  thread, and never fail the change: what goes out to the readers (games/live/), and the
  tasks (bot turns, scoring: ``games.matches.follow_up``).

Nothing in the event is shown to anyone as it is: ``match``, ``state`` and ``move`` are
in-process objects a receiver may build each reader's view from (games/live/frames.py),
which is where hidden information is removed.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from django.db import transaction

logger = logging.getLogger(__name__)


class ChangeKind(StrEnum):
    """What changed. A reader's picture depends on all of it: the kind only says which
    writer spoke, so a receiver can skip what it has no use for."""

    MOVE = "move"  # a move entered the log (``MatchChanged.move``)
    STARTED = "started"  # the game was dealt
    SEATS = "seats"  # a seat changed hands: joined, left, handed to a bot or back
    STATUS = "status"  # aborted, or scored and finished
    CLOCK = "clock"  # time added, a deadline moved


@dataclass
class MatchChanged:
    """One committed change of one match, as its writer knew it inside the transaction."""

    kind: ChangeKind
    match_id: int
    ply: int
    status: str
    #: the seats that owe a decision now (empty unless active)
    to_act: list[int]
    #: the request that made the change (None: a task, the clock): pushes carry it
    request_id: str | None
    #: the match after the change, its seats (with users) loaded; None when the writer
    #: did not have it whole (receivers then read the match)
    match: Any = None
    #: the engine state after the change (None: not in hand)
    state: Any = None
    #: the logged move (``ChangeKind.MOVE`` only)
    move: Any = None
    #: the match's seats as the writer left them (bot kinds, users)
    seats: list = field(default_factory=list)
    #: the writer's pending statement (games.matches.writes.WriteBatch), which rows of
    #: ``within`` receivers may join; None once it is executed, or when there is none
    batch: Any = None
    #: the bot seat whose next turn the writer's caller plays itself (a bot task playing
    #: on: games/matches/bot_moves.py): no task is sent for it
    bot_plays_on: int | None = None
    #: the rank of each seat, when the change is a scoring that stored results
    ranks: dict[int, int] | None = None
    #: (channel-layer group, message) pairs that ``within`` receivers add: sent after
    #: the commit with the match's own messages
    group_messages: list[tuple[str, dict]] = field(default_factory=list)
    #: what an after-commit receiver derived from the change that another needs too,
    #: kept so it is made once per change (games.webhooks.events.change_events)
    derived: dict[str, Any] = field(default_factory=dict)


Receiver = Callable[[MatchChanged], None]

_within: list[Receiver] = []
_after_commit: list[Receiver] = []


def connect(receiver: Receiver, *, within_transaction: bool = False) -> None:
    """Register ``receiver`` for every change (once: a second registration is ignored).
    Called at start-up (games/apps.py); the order of registration is the order of calls."""
    receivers = _within if within_transaction else _after_commit
    if receiver not in receivers:
        receivers.append(receiver)


def record_change(event: MatchChanged) -> None:
    """Inside the writer's transaction: run the ``within`` receivers now, and the
    ``after_commit`` ones once it commits (nothing is said of a change that did not land).
    Each after-commit receiver runs on its own: one that fails is logged and the others
    still run."""
    for receiver in _within:
        receiver(event)
    transaction.on_commit(lambda: _after(event))


def _after(event: MatchChanged) -> None:
    for receiver in _after_commit:
        try:
            receiver(event)
        except Exception:  # noqa: BLE001 - the change is committed: tell the rest anyway
            logger.exception("a receiver of match %s's change at ply %s failed",
                             event.match_id, event.ply)
