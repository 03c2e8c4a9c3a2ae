"""The notification fan-out's events become mails (docs/webhooks.md, "E-mail for
players"): one ``Mail`` row per user and key, so a task run twice (a retry, a redelivered
message) mails once, and "your turn" at most once per match and ply.

- **your turn** waits MAIL_YOUR_TURN_AFTER_MINUTES (``due_at``); the sweep then sends it
  only if the match still waits for that seat at that ply and the player has not looked at
  it since (games/mail/looks.py);
- invitation, match started, match finished and reminders go at once; a chat message at
  most once per match and day;
- a player who chose the daily digest gets nothing at once: the event waits for the digest
  (games/mail/digest.py).

Only a confirmed address is mailed; an event type the player turned off is not. A mail the
server refused is tried again by the sweep, with doubling waits, MAIL_MAX_ATTEMPTS times.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from games.mail import composing, looks, metrics, sending
from games.mail.models import (
    CHAT_MESSAGE,
    EVENT_TYPES,
    INVITATION,
    REMINDER,
    YOUR_TURN,
    Mail,
    MailAddress,
    MailStatus,
)
from games.matches.models import Match, MatchStatus
from games.notifications import preferences
from games.notifications.models import EMAIL

logger = logging.getLogger(__name__)

#: what an event's data may hold, and what a mail may show: ids and public facts
PUBLIC_KEYS = ("match_id", "invitation_id", "game", "ply", "seat", "status", "deadline")
#: an event mailed at once is the sweep's too only if its first try has not ended by then
_FIRST_TRY_GRACE = timedelta(minutes=2)


def mail_key(event_type: str, data: dict) -> str:
    """What makes two events one mail for a player."""
    match = data.get("match_id", "")
    if event_type == YOUR_TURN:
        return f"your_turn:{match}:{data.get('ply', '')}"
    if event_type == INVITATION:
        return f"invitation:{data.get('invitation_id') or match}"
    if event_type == REMINDER:
        return f"reminder:{match}:{data.get('ply', '')}:{data.get('deadline', '')}"
    if event_type == CHAT_MESSAGE:
        return f"chat_message:{match}:{timezone.now().date().isoformat()}"
    return f"{event_type}:{match}"


def muted(address: MailAddress, event_type: str) -> bool:
    """Turned off by the player (asked again at send time: a mail waits, and the player
    may have unsubscribed meanwhile)."""
    return not preferences.allows(address.user_id, EMAIL, event_type)


def _unmailable(address: MailAddress | None, event_type: str) -> str | None:
    """Why ``address`` may not be mailed ``event_type`` now (None: it may)."""
    if address is None or address.verified_at is None:
        return "unverified"
    return "muted" if muted(address, event_type) else None


def accept_event(event_type: str, user_id: int,
                 data: dict) -> tuple[int, MailAddress] | None:
    """Record the event's mail; a mail to send now (its id, and the address just found
    confirmed and not muted for it, which ``deliver`` then need not ask again), else None
    (it waits, is kept for the digest, is a duplicate, or is not to be sent: counted).
    The address and the preference are asked here, in the mail's own task, not taken
    from the fan-out's: a player who turned the event off since is not mailed."""
    if event_type not in EVENT_TYPES or not isinstance(data, dict):
        logger.warning("mail: event %r ignored (unknown)", event_type)
        return None
    address = MailAddress.objects.filter(user_id=user_id).select_related("user").first()
    reason = _unmailable(address, event_type)
    if reason is not None:
        metrics.counted(event_type, reason)
        return None
    public = {key: data[key] for key in PUBLIC_KEYS if key in data}
    now = timezone.now()
    if address.daily_digest:
        status, due = MailStatus.IN_DIGEST, None
    elif event_type == YOUR_TURN:
        status = MailStatus.PENDING
        due = now + timedelta(minutes=settings.MAIL_YOUR_TURN_AFTER_MINUTES)
    else:
        status, due = MailStatus.PENDING, now + _FIRST_TRY_GRACE
    try:
        with transaction.atomic():
            mail = Mail.objects.create(user_id=user_id, key=mail_key(event_type, public),
                                       event_type=event_type, data=public, status=status,
                                       due_at=due)
    except IntegrityError:  # this mail exists: a retry, or a second event of the turn
        metrics.counted(event_type, "skipped")
        return None
    if status == MailStatus.IN_DIGEST:
        metrics.counted(event_type, "digest")
        return None
    return None if event_type == YOUR_TURN else (mail.pk, address)


def still_your_turn(mail: Mail) -> bool:
    """The match still waits for the seat at the ply of the mail, and the player has not
    been shown that ply (REST, GraphQL or a play socket: games/mail/looks.py)."""
    data = mail.data
    waiting = Match.objects.filter(pk=data.get("match_id"), ply=data.get("ply"),
                                   status=MatchStatus.ACTIVE,
                                   to_act__contains=[data.get("seat")]).exists()
    return waiting and looks.seen_ply(mail.user_id, data["match_id"]) < data["ply"]


def _retry_or_fail(mail: Mail, error: str) -> None:
    mail.attempts += 1
    mail.last_error = error
    if mail.attempts >= settings.MAIL_MAX_ATTEMPTS:
        mail.status, mail.reason = MailStatus.FAILED, "server_refused"
    else:
        wait = settings.MAIL_RETRY_BASE_SECONDS * 2 ** (mail.attempts - 1)
        mail.due_at = timezone.now() + timedelta(seconds=wait)


def deliver(mail_id: int, checked: MailAddress | None = None) -> str:
    """Send a pending mail, once: its row is locked while it goes, so a second task (a
    retry, the sweep) waits and then finds it sent. Returns the mail's status.
    ``checked``: the address ``accept_event`` found confirmed and not muted for this mail
    moments ago in the same task (``mail_event``); a mail that waited (the sweep, a
    retry) asks both again, since the player may have changed them meanwhile."""
    with transaction.atomic():
        mail = Mail.objects.select_for_update().filter(pk=mail_id).first()
        if mail is None or mail.status != MailStatus.PENDING:
            return mail.status if mail is not None else "missing"
        address = checked or MailAddress.objects.filter(
            user_id=mail.user_id).select_related("user").first()
        # asked by accept_event in this task already: not twice
        reason = None if checked is not None else _unmailable(address, mail.event_type)
        if reason is None and mail.event_type == YOUR_TURN and not still_your_turn(mail):
            reason = "looked_or_moved_on"
        if reason is not None:
            mail.status, mail.reason = MailStatus.SKIPPED, reason
            metrics.counted(mail.event_type,
                            reason if reason in metrics.OUTCOMES else "skipped")
        else:
            error = sending.send(composing.event_mail(address, mail.event_type, mail.data),
                                 mail.event_type)
            if error is None:
                mail.status, mail.sent_at = MailStatus.SENT, timezone.now()
                metrics.EVENT_TO_SENT_SECONDS.labels(mail.event_type).observe(
                    (mail.sent_at - mail.created).total_seconds())
            else:
                _retry_or_fail(mail, error)
        mail.save()
        return mail.status


def due_mail_ids(limit: int = 500) -> list[int]:
    """The pending mails whose time has come, oldest first."""
    return list(Mail.objects.filter(status=MailStatus.PENDING, due_at__lte=timezone.now())
                .order_by("due_at").values_list("pk", flat=True)[:limit])
