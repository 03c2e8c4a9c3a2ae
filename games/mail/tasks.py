"""The mails' Celery tasks: thin, the work is in ``delivery``, ``digest`` and ``services``.
Sent by name (games.dispatch); ``mail_event`` is the notification fan-out's door
(games.notifications enqueues it when a player allows e-mail for the event)."""

from __future__ import annotations

from celery import shared_task

from games.dispatch import enqueue
from games.mail import composing, delivery, digest, sending
from games.mail.models import MailAddress
from games.task_options import RETRY_OPTIONS

DELIVER_TASK = "games.mail.tasks.deliver"
DIGEST_TASK = "games.mail.tasks.send_digest"


@shared_task(name="games.mail.tasks.mail_event", **RETRY_OPTIONS)
def mail_event(event_type: str, user_id: int, data: dict) -> None:
    """An event for one player: recorded once; mailed now, later ("your turn") or in the
    digest."""
    accepted = delivery.accept_event(event_type, user_id, data)
    if accepted is not None:
        mail_id, checked_address = accepted
        delivery.deliver(mail_id, checked=checked_address)  # not asked twice in one task


@shared_task(name="games.mail.tasks.deliver", **RETRY_OPTIONS)
def deliver(mail_id: int) -> str:
    return delivery.deliver(mail_id)


@shared_task(name="games.mail.tasks.send_due", **RETRY_OPTIONS)
def send_due() -> int:
    """Beat, every MAIL_SWEEP_SECONDS: each mail whose time came gets its own task."""
    ids = delivery.due_mail_ids()
    for mail_id in ids:
        enqueue(DELIVER_TASK, mail_id)
    return len(ids)


@shared_task(name="games.mail.tasks.send_digests", **RETRY_OPTIONS)
def send_digests() -> int:
    """Beat, daily: a task per player with events kept for the digest."""
    users = digest.users_with_digest()
    for user_id in users:
        enqueue(DIGEST_TASK, user_id)
    return len(users)


@shared_task(name="games.mail.tasks.send_digest", **RETRY_OPTIONS)
def send_digest(user_id: int) -> str:
    return digest.send_digest(user_id)


@shared_task(name="games.mail.tasks.send_confirmation", **RETRY_OPTIONS)
def send_confirmation(user_id: int) -> str | None:
    """The confirmation link, to the address as it is now (a changed one gets its own)."""
    address = MailAddress.objects.filter(user_id=user_id).select_related("user").first()
    if address is None or address.verified_at is not None:
        return None
    return sending.send(composing.confirmation_mail(address), "confirmation")


@shared_task(name="games.mail.tasks.send_test_mail", **RETRY_OPTIONS)
def send_test_mail(user_id: int) -> str | None:
    """A test mail asked for over the API: only to a confirmed address."""
    address = MailAddress.objects.filter(user_id=user_id).select_related("user").first()
    if address is None or address.verified_at is None:
        return None
    return sending.send(composing.event_mail(address, "test", {}), "test")
