"""What every write to a match does after its commit, said once: ``schedule_follow_up``
records the change (``games.matches.changes.MatchChanged``) and, on commit, sends the
tasks the match now waits on (bot turns, the scoring of a game that is over).

Shared by the move service (games/matches/services.py), the match services of this package,
scoring and the clocks' services, so that a match changed by any of them wakes the same
workers and readers (docs/architecture.md "Writing a move"). What the readers are sent is
games/live/'s business, a receiver of the change connected at start-up (games/apps.py).
"""

from __future__ import annotations

from typing import Any

from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.matches.changes import ChangeKind, MatchChanged, record_change
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Move, Seat
from games.matches.played_rules import engine_of
from games.matches.writes import WriteBatch
from infra.observability import request_id
from rules.engine import Engine


def schedule_follow_up(
    match: Match, state: Any | None, seats: list[Seat] | None = None,
    batch: WriteBatch | None = None, *, kind: ChangeKind | None = None,
    move: Move | None = None, bot_plays_on: int | None = None,
    ranks: dict[int, int] | None = None,
) -> MatchChanged:
    """Record the change of ``match`` (inside its transaction, with what is known now) and,
    after the commit, tell its receivers and send its tasks. ``seats``: the match's seats
    if the caller has them already; ``batch``: the caller's writes, which the feed events
    join; ``kind``: what changed (a move when ``move`` is given, else the match's status
    says); ``bot_plays_on``: a bot seat whose next turn the caller plays itself (no task is
    sent for it: games/matches/bot_moves.py); ``ranks``: each seat's rank, when the
    change is a scoring that stored results (the ratings move on it)."""
    to_act: list[int] = []
    if match.status == MatchStatus.ACTIVE and state is not None:
        to_act = sorted(engine_of(match).to_act(state))
    if seats is None:  # read only when someone needs them: the feed, the bots' tasks
        needed = match.status == MatchStatus.ACTIVE or match.status in ENDED_STATUSES
        seats = list(match.seats.all()) if needed else []
    event = MatchChanged(
        kind=kind or (ChangeKind.MOVE if move is not None else ChangeKind.STATUS),
        match_id=match.pk, ply=match.ply, status=match.status, to_act=to_act,
        request_id=request_id.current(), match=match, state=state, move=move,
        bot_plays_on=bot_plays_on, seats=seats, batch=batch, ranks=ranks)
    record_change(event)
    return event


def send_tasks(event: MatchChanged) -> None:
    """After the commit: a task for each bot seat now owing a decision (but the one whose
    caller plays on), and the scoring of a game that is over. Connected as an after-commit
    receiver of every change (games/apps.py), after what goes out to readers."""
    bots = {seat.position for seat in event.seats if seat.bot_kind}
    for position in event.to_act:
        if position in bots and position != event.bot_plays_on:
            enqueue_bot_turn(event.match_id, position, event.ply)
    if event.status == MatchStatus.SCORING:
        enqueue_scoring(event.match_id)


def touch(match: Match) -> None:
    """Move ``updated_at`` on: the seats changed, so what GET shows changed although the
    ply and status did not (a poller's ETag must not match any more: games.matches.polling)."""
    match.save(update_fields=["updated_at"])


def to_act_now(match: Match, engine: Engine, state: Any) -> list[int]:
    """``Match.to_act`` for the snapshot being written: the engine's answer while the
    match is active, nobody otherwise."""
    return list(engine.to_act(state)) if match.status == MatchStatus.ACTIVE else []
