"""What every write to a match schedules after its commit: the bot turns now due, the
scoring of a game that is over, the players' feeds and the live notification.

Shared by the move service (games/matches/services.py), the match services of this package and
the clocks' services, so that a match changed by any of them wakes the same workers and
subscribers (docs/architecture.md, "Writing a move", step 5)."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.dispatch import enqueue_bot_turn, enqueue_scoring
from games.feed import services as feed
from games.matches.models import ENDED_STATUSES, Match, MatchStatus, Seat
from games.matches.notifications import publish_match_update_soon
from games.matches.writes import WriteBatch
from rules import get_engine
from rules.engine import Engine


def schedule_follow_up(
    match: Match, state: Any | None, seats: list[Seat] | None = None,
    batch: WriteBatch | None = None,
) -> None:
    """After commit: bot turns for bot seats now to act, scoring if the game is over, and
    the live notification. Reads only what is known now, inside the transaction
    (``seats``: the match's seats if the caller has them already; ``batch``: the
    caller's writes, which the feed events join)."""
    match_id, ply, status = match.pk, match.ply, match.status
    bot_turns: list[int] = []
    to_act: set[int] = set()
    if status == MatchStatus.ACTIVE and state is not None:
        to_act = set(get_engine(match.game).to_act(state))
        if seats is None:
            seats = list(match.seats.all())
        bot_turns = sorted(
            seat.position for seat in seats if seat.bot_kind and seat.position in to_act
        )
    if status == MatchStatus.ACTIVE or status in ENDED_STATUSES:
        # the players' feeds: "your turn", "match finished" (stored now, pushed on commit)
        feed.announce_match(match, state, seats if seats is not None else
                            list(match.seats.all()), sorted(to_act), batch)

    def follow_up() -> None:
        publish_match_update_soon(match_id, ply, status)
        for position in bot_turns:
            enqueue_bot_turn(match_id, position, ply)
        if status == MatchStatus.SCORING:
            enqueue_scoring(match_id)

    transaction.on_commit(follow_up, robust=True)


def touch(match: Match) -> None:
    """Move ``updated_at`` on: the seats changed, so what GET shows changed although the
    ply and status did not (a poller's ETag must not match any more: games.matches.polling)."""
    match.save(update_fields=["updated_at"])


def to_act_now(match: Match, engine: Engine, state: Any) -> list[int]:
    """``Match.to_act`` for the snapshot being written: the engine's answer while the
    match is active, nobody otherwise."""
    return list(engine.to_act(state)) if match.status == MatchStatus.ACTIVE else []
