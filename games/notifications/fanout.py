"""What reaches players' own channels: a match's committed change (a receiver of
``games.matches.changes``, connected beside the webhooks' in games/apps.py), an invitation
(the lobby calls ``invitation_sent`` in its transaction), a chat message and a reminder
(games/notifications/reminders.py) each become one ``fan_out`` task after the commit; the
task asks each user's preferences and hands the event to their channels by name
(games/notifications/__init__.py states the contract).

The events are the webhooks' (``games.webhooks.events.change_events``): an app and a
player are told the same things, with the same public data."""

from __future__ import annotations

from celery import current_app
from django.db import transaction

from games.dispatch import enqueue
from games.matches.changes import MatchChanged
from games.notifications import preferences, push
from games.notifications.messages import PUSHED
from games.notifications.models import EMAIL, INVITATION, PUSH
from games.notifications.reach import anyone_reachable, confirmed_addresses
from games.webhooks.events import change_events

FAN_OUT_TASK = "games.notifications.tasks.fan_out"
PUSH_TASK = "games.notifications.tasks.push_event"
MAIL_TASK = "games.mail.tasks.mail_event"


def send_change_notifications(event: MatchChanged) -> None:
    """After the commit of a match's change: one ``fan_out`` task per event."""
    if not any(seat.user_id is not None for seat in event.seats) or not anyone_reachable():
        return
    for event_type, user_ids, data in change_events(event):
        enqueue(FAN_OUT_TASK, event_type, user_ids, data)


def invitation_sent(invitation, game: str) -> None:
    """In the lobby's transaction: "invitation" to the invitee once it commits. ``game``:
    the match's game, so a mail or a push names it (not "a game")."""
    notify_after_commit(INVITATION, [invitation.invitee_id],
                        {"invitation_id": invitation.pk, "match_id": invitation.match_id,
                         "game": game})


def notify_now(event_type: str, user_ids: list[int], data: dict) -> None:
    """``notify_after_commit``'s second half, once the event has committed: its
    ``fan_out``, unless nobody can be reached. (Callers in a transaction use
    ``notify_after_commit``.)"""
    if user_ids and anyone_reachable():
        enqueue(FAN_OUT_TASK, event_type, user_ids, data)


def notify_after_commit(event_type: str, user_ids: list[int], data: dict) -> None:
    """In the caller's transaction (an invitation, a chat message: games/chat/notices.py,
    a reminder): ``notify_now`` once it commits. The one way an event other than a match's
    change reaches the fan-out, so each gets the reach check (no task, no query while
    nobody can be told) and ``robust``: the reach check reads the database after the
    commit, and its failure is logged, never raised into the answer of something that
    was stored (a chat message acknowledged, an invitation made, a reminder's sweep)."""
    transaction.on_commit(lambda: notify_now(event_type, user_ids, data), robust=True)


def _mail_channel_installed() -> bool:
    """The e-mail channel's task exists here (games/mail/ is part of this service)."""
    return MAIL_TASK in current_app.tasks


def fan_out(event_type: str, user_ids: list[int], data: dict) -> dict[str, list[int]]:
    """Hand ``event_type`` to each user's allowed channels (the ``fan_out`` task's work):
    ``push_event`` for those with a subscription who allow push, ``mail_event`` for those
    with an address who allow e-mail. Who got what, by channel."""
    ids = list(dict.fromkeys(user_ids))
    sent: dict[str, list[int]] = {PUSH: [], EMAIL: []}
    if push.enabled() and event_type in PUSHED:
        sent[PUSH] = preferences.allowed_users(push.users_with_subscriptions(ids), PUSH,
                                               event_type)
    if _mail_channel_installed():
        with_address = list(confirmed_addresses().filter(user_id__in=ids)
                            .values_list("user_id", flat=True))
        sent[EMAIL] = preferences.allowed_users(with_address, EMAIL, event_type)
    for user_id in sent[PUSH]:
        enqueue(PUSH_TASK, event_type, user_id, data)
    for user_id in sent[EMAIL]:
        enqueue(MAIL_TASK, event_type, user_id, data)
    return sent
