"""A player's address and choices: set it (a confirmation mail goes), confirm it by the
signed link, ask again for the link, choose the daily digest, turn mail (or the digest)
off by a mail's unsubscribe link, remove it. The only writer of ``MailAddress``."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib.auth.base_user import BaseUserManager
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from games.dispatch import enqueue
from games.mail import errors, tokens
from games.mail.mailable import anyone_mailable
from games.mail.models import EVENT_TYPES, Mail, MailAddress
from games.notifications import preferences, reach
from games.notifications.models import EMAIL

CONFIRMATION_TASK = "games.mail.tasks.send_confirmation"
TEST_MAIL_TASK = "games.mail.tasks.send_test_mail"


def normalized_address(value: object) -> str:
    """The address as it is stored (its domain in lower case), or 400
    ``mail_address_invalid``."""
    if not isinstance(value, str) or not value.strip() or len(value.strip()) > 254:
        raise errors.AddressInvalid(details={"field": "address"})
    address = BaseUserManager.normalize_email(value.strip())
    try:
        validate_email(address)
    except ValidationError:
        raise errors.AddressInvalid(details={"field": "address"}) from None
    return address


def _send_confirmation(row: MailAddress) -> None:
    row.confirmation_sent_at = timezone.now()
    row.save(update_fields=["confirmation_sent_at"])
    transaction.on_commit(lambda: enqueue(CONFIRMATION_TASK, row.user_id))


@transaction.atomic
def set_address(user, address: object, language: str) -> MailAddress:
    """Set (or change) the player's address; a new one is unconfirmed and is sent a
    confirmation link. Setting the confirmed address again changes nothing."""
    address = normalized_address(address)
    row = MailAddress.objects.select_for_update().filter(user=user).first()
    if row is not None and row.address == address:
        return row
    if row is None:
        row = MailAddress(user=user)
    row.address, row.verified_at, row.language = address, None, language
    row.save()
    _send_confirmation(row)
    return row


@transaction.atomic
def resend_confirmation(user) -> MailAddress:
    row = MailAddress.objects.select_for_update().filter(user=user).first()
    if row is None:
        raise errors.AddressMissing()
    if row.verified_at is not None:
        raise errors.AddressAlreadyVerified()
    wait = timedelta(seconds=settings.MAIL_CONFIRM_RESEND_SECONDS)
    if row.confirmation_sent_at and timezone.now() - row.confirmation_sent_at < wait:
        left = wait - (timezone.now() - row.confirmation_sent_at)
        raise errors.ConfirmationTooSoon(details={"retry_after": int(left.total_seconds()) + 1})
    _send_confirmation(row)
    return row


@transaction.atomic
def update_choices(user, *, daily_digest: bool | None = None,
                   language: str | None = None) -> MailAddress:
    row = MailAddress.objects.select_for_update().filter(user=user).first()
    if row is None:
        raise errors.AddressMissing()
    for name, value in (("daily_digest", daily_digest), ("language", language)):
        if value is not None:
            setattr(row, name, value)
    row.save()
    return row


def remove_address(user) -> None:
    if not MailAddress.objects.filter(user=user).delete()[0]:
        raise errors.AddressMissing()


def forget(user) -> None:
    """An erased account (games/leaving/services.py): its address and mail log go."""
    MailAddress.objects.filter(user=user).delete()
    Mail.objects.filter(user=user).delete()


def ask_test_mail(user) -> None:
    """A test mail to the player's address: refused (409 ``mail_address_unverified``)
    while it is not confirmed, as every mail is."""
    row = MailAddress.objects.filter(user=user).first()
    if row is None:
        raise errors.AddressMissing()
    if row.verified_at is None:
        raise errors.AddressUnverified()
    enqueue(TEST_MAIL_TASK, user.pk)


@transaction.atomic
def confirm(token: str) -> MailAddress | None:
    """The confirmation link's work: the address it names, if still the player's, is
    verified. None for a forged, expired or outdated link (the address changed since)."""
    read = tokens.read_confirmation(token)
    if read is None:
        return None
    user_id, address = read
    row = MailAddress.objects.select_for_update().filter(user_id=user_id).first()
    if row is None or row.address != address:
        return None
    if row.verified_at is None:
        row.verified_at = timezone.now()
        row.save(update_fields=["verified_at"])
        # this process tracks looks at once; the others within MAIL_LOOKS_CHECK_SECONDS
        transaction.on_commit(lambda: anyone_mailable.set(True))
        # and its fan-out mails the address from the next event on, not once its cached
        # "nobody reachable" expires (games/notifications/reach.py)
        reach.mark_reachable_after_commit()
    return row


def unsubscribe_scope(token: str) -> tuple[int, str] | None:
    """(user id, event type, ``all`` or ``digest``) of a valid unsubscribe link, else
    None."""
    read = tokens.read_unsubscribe(token)
    if read is None or (read[1] not in (tokens.ALL, tokens.DIGEST)
                        and read[1] not in EVENT_TYPES):
        return None
    return read


def unsubscribe(token: str) -> tuple[int, str] | None:
    """One click of a mail's link: that event type's e-mail off, or every event type's,
    in the player's notification preferences (channel ``email``), where they turn it on
    again. A digest's own link (``digest``) turns the daily digest off instead, and no
    event type: what "stop these digests" means. Works without signing in (the link is
    signed); twice changes nothing more."""
    read = unsubscribe_scope(token)
    if read is None:
        return None
    user_id, scope = read
    if scope == tokens.DIGEST:
        MailAddress.objects.filter(user_id=user_id).update(daily_digest=False)
        return read
    kinds = EVENT_TYPES if scope == tokens.ALL else (scope,)
    preferences.set_preferences(user_id, [(EMAIL, kind, False) for kind in kinds])
    return read
