"""What becomes a webhook: a match's committed change (a receiver of
``games.matches.changes``, connected in games/apps.py), an invitation (the lobby calls
``invitation_sent`` in its transaction) and a chat message (the chat calls
``chat_message_sent`` in its). After the commit each event some endpoint takes is
appended to the events' Redis list (event_queue.py); a drain task makes the deliveries
of many at once (batches.py), finding the subscribed endpoints.

The data are ids and public facts only (a match's id, game, ply, the seat that owes a
move, how it ended): never a hand, a deck or a seed, so no seat's hidden information can
reach an app, whichever of its users the delivery is for.
"""

from __future__ import annotations

from django.db import transaction

from games.matches.changes import ChangeKind, MatchChanged
from games.matches.models import ENDED_STATUSES, MatchStatus
from games.webhooks.event_queue import push, push_all
from games.webhooks.models import (
    CHAT_MESSAGE,
    INVITATION,
    MATCH_FINISHED,
    MATCH_STARTED,
    YOUR_TURN,
    Endpoint,
)
from infra.checked_every import CheckedEvery

#: the kinds of change after which the seats owing a move are told: a move, the deal, a
#: seat handed back (a clock's change at the same ply owes nobody anything new)
_TURN_KINDS = (ChangeKind.MOVE, ChangeKind.STARTED, ChangeKind.SEATS)

#: where ``change_events`` keeps its list on the change (``MatchChanged.derived``)
_EVENTS = "public_events"

def _active_event_types() -> frozenset[str]:
    rows = Endpoint.objects.filter(active=True).values_list("event_types", flat=True)
    return frozenset(kind for row in rows.distinct() for kind in row)


#: The event types some active endpoint takes, asked at most once per
#: WEBHOOK_ENDPOINTS_CHECK_SECONDS per process (infra/checked_every.py): a change nobody
#: subscribed to pushes nothing (a service without webhooks sends none per move: the
#: move's ack is not to pay for a feature nobody uses).
subscribed_types: CheckedEvery[frozenset[str]] = CheckedEvery(
    "WEBHOOK_ENDPOINTS_CHECK_SECONDS", _active_event_types, frozenset())


def change_events(event: MatchChanged) -> list[tuple[str, list[int], dict]]:
    """What a match's committed change becomes, as ``(event type, user ids, data)``:
    "match started" to the people seated when it was dealt, "your turn" to each seated
    person now owing a decision, "match finished" to the people seated once it ended.
    No query: the change carries its seats. The player channels (games/notifications/
    fanout.py) read the same list, so an app and a player are told the same things: it is
    made once per change, by whichever asks first, and kept on the event for the other."""
    found = event.derived.get(_EVENTS)
    if found is None:
        found = event.derived[_EVENTS] = _events_of(event)
    return found


def _events_of(event: MatchChanged) -> list[tuple[str, list[int], dict]]:
    users = {seat.position: seat.user_id for seat in event.seats if seat.user_id is not None}
    if not users:
        return []
    match = event.match
    base = {"match_id": event.match_id, "game": match.game if match is not None else None}
    found = []
    if event.kind == ChangeKind.STARTED:
        found.append((MATCH_STARTED, sorted(set(users.values())), base))
    if event.status == MatchStatus.ACTIVE and event.kind in _TURN_KINDS:
        found.extend((YOUR_TURN, [users[position]],
                      {**base, "ply": event.ply, "seat": position})
                     for position in event.to_act if position in users)
    elif event.status in ENDED_STATUSES and event.kind == ChangeKind.STATUS:
        found.append((MATCH_FINISHED, sorted(set(users.values())),
                       {**base, "status": event.status}))
    return found


def send_change_events(event: MatchChanged) -> None:
    """After the commit of a match's change: each event some endpoint takes, pushed."""
    if not any(seat.user_id is not None for seat in event.seats):
        return
    types = subscribed_types()
    if not types:
        return
    push_all([(event_type, user_ids, data) for event_type, user_ids, data
              in change_events(event) if event_type in types])


def invitation_sent(invitation) -> None:
    """In the lobby's transaction: "invitation" to the invitee once it commits."""
    data = {"invitation_id": invitation.pk, "match_id": invitation.match_id}
    invitee = invitation.invitee_id
    # robust: the check reads the database after the commit; a failure is logged, never
    # raised into the answer of an invitation that was stored (as the chat's, below)
    transaction.on_commit(lambda: INVITATION in subscribed_types() and push(
        INVITATION, [invitee], data), robust=True)


def chat_message_sent(*, match_id: int, room: str, message_id: int, author_id: int,
                      text: str, readers: list[int]) -> None:
    """In the chat's transaction: "chat_message" once it commits, to ``readers`` (the
    chat names them: the users at the table who may read the room, neither its author
    nor anyone who muted the author: docs/chat.md "Webhooks"). Ids and the text only."""
    if not readers:
        return
    data = {"match_id": match_id, "room": room, "message_id": message_id,
            "author_id": author_id, "text": text}
    # robust: the check reads the database after the commit; its failure is logged, and
    # the chat's sender is still answered that the message was stored
    transaction.on_commit(lambda: CHAT_MESSAGE in subscribed_types() and push(
        CHAT_MESSAGE, sorted(readers), data), robust=True)
