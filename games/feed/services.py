"""Writing feed events: the only writer of ``FeedEvent``.

Callers already hold their transaction: a match's change (``announce_change``, a receiver
run in its writer's transaction: games.matches.changes), the lobby, quick match. The events
are inserted in it, so an event exists exactly when the change it announces committed,
and the live push (a channel-layer message naming only the user) is sent after the commit.
Announcing the same fact twice is a no-op (the (user, dedupe_key) constraint).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from games.feed.models import FeedEvent
from games.matches.changes import ChangeKind, MatchChanged
from games.matches.clock_selectors import clocks_of, incident_rows
from games.matches.models import ENDED_STATUSES, Match, MatchStatus
from games.matches.seat_players import players_by_seat
from games.matches.writes import WriteBatch
from infra.channel_messages import send_to_group_soon
from infra.timestamps import utc_iso

logger = logging.getLogger(__name__)

#: the ``type`` of the channel-layer message; carries only ``user_id`` and ``event_id``
FEED_EVENT_TYPE = "feed.event"

YOUR_TURN = "your_turn"
MATCH_STARTED = "match_started"
MATCH_FINISHED = "match_finished"
INVITATION_RECEIVED = "invitation_received"
MATCHED = "matched"
KINDS = (YOUR_TURN, MATCH_STARTED, MATCH_FINISHED, INVITATION_RECEIVED, MATCHED)


def feed_group_name(user_id: int) -> str:
    return f"feed-{user_id}"


def publish(user_ids: Iterable[int], kind: str, payload: dict, dedupe_key: str,
            batch: WriteBatch | None = None,
            pushes: list[tuple[str, dict]] | None = None) -> None:
    """Store ``kind`` with ``payload`` for each of ``user_ids`` (once per dedupe_key) and
    push it to their live streams after the commit. With ``batch`` the rows join the
    caller's other writes in one statement (the move service: games.matches.writes); with
    ``pushes`` the live pushes are added there for the caller to send after its commit
    (a match's change sends them with its own: games.matches.changes)."""
    rows = [FeedEvent(user_id=user_id, kind=kind, payload=payload, dedupe_key=dedupe_key)
            for user_id in dict.fromkeys(user_ids)]
    if not rows:
        return
    if batch is None:
        FeedEvent.objects.bulk_create(rows, ignore_conflicts=True)
    else:
        batch.insert_ignoring_conflicts(rows)
    messages = [(feed_group_name(row.user_id), {"type": FEED_EVENT_TYPE, "user_id": row.user_id})
                for row in rows]
    if pushes is not None:
        pushes.extend(messages)
        return

    def push() -> None:
        for group, message in messages:
            send_to_group_soon(group, message)

    transaction.on_commit(push, robust=True)


def _people(match: Match, seats) -> list[int]:
    """The people at the table: seated users and, once the match ended, those whose seat a
    bot finished for them (games.matches.seat_players: a timeout, a resignation, an admin's
    hand-over)."""
    if match.status in ENDED_STATUSES:
        return list(players_by_seat(seats, incident_rows(match)).values())
    return [seat.user_id for seat in seats if seat.user_id is not None]


def announce_change(event: MatchChanged) -> None:
    """A receiver of every change of a match, inside its transaction (connected in
    games/apps.py): "match started" to the people at the table when it was dealt, "your
    turn" to each person now owing a decision (with the ply and, on a clock, the
    deadline), and "match finished" to every person once it ended (finished or aborted).
    The rows join the writer's batch when it has one; the live pushes go out with the
    match's own messages (``event.group_messages``)."""
    match, seats, pushes = event.match, event.seats, event.group_messages
    if event.kind == ChangeKind.STARTED:
        publish(_people(match, seats), MATCH_STARTED,
                {"match_id": match.pk, "game": match.game, "players": match.players},
                f"started:{match.pk}", pushes=pushes)
    if match.status == MatchStatus.ACTIVE and event.state is not None:
        to_act = event.to_act
        clocks = {row["seat"]: row for row in clocks_of(match)} if to_act else {}
        for seat in seats:
            if seat.user_id is None or seat.position not in to_act:
                continue
            deadline = clocks.get(seat.position, {}).get("deadline")
            publish([seat.user_id], YOUR_TURN, {
                "match_id": match.pk, "game": match.game, "ply": match.ply,
                "seat": seat.position,
                "deadline": utc_iso(deadline),
            }, f"turn:{match.pk}:{match.ply}:{seat.position}", event.batch, pushes)
    elif match.status in ENDED_STATUSES:
        publish(_people(match, seats), MATCH_FINISHED, {
            "match_id": match.pk, "game": match.game, "status": match.status,
        }, f"ended:{match.pk}", event.batch, pushes)


def announce_invitation(invitation) -> None:
    publish([invitation.invitee_id], INVITATION_RECEIVED, {
        "invitation_id": invitation.pk, "match_id": invitation.match_id,
        "inviter": invitation.inviter.username if invitation.inviter else None,
        "is_rematch": invitation.is_rematch, "position": invitation.position,
    }, f"invitation:{invitation.pk}")


def announce_matched(request) -> None:
    publish([request.user_id], MATCHED, {
        "request_id": request.pk, "match_id": request.match_id, "game": request.game,
        "players": request.players,
    }, f"matched:{request.pk}")


def forget(user, former_username: str) -> None:
    """``user``'s account was erased (games/leaving): its own feed goes (nobody can read it
    any more), and the invitations in other people's feeds that named it as the inviter
    name its tombstone."""
    FeedEvent.objects.filter(user=user).delete()
    for event in FeedEvent.objects.filter(kind=INVITATION_RECEIVED,
                                          payload__inviter=former_username):
        FeedEvent.objects.filter(pk=event.pk).update(
            payload={**event.payload, "inviter": user.username})
