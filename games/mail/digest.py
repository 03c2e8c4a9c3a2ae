"""The daily digest (docs/webhooks.md, "E-mail for players"): a player who chose it gets
one mail a day (beat: ``games.mail.tasks.send_digests`` at MAIL_DIGEST_HOUR_UTC) listing
the events kept for it since the last one. A "your turn" the player has since looked at or
that has passed is left out; a day with nothing to list sends nothing."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from games.mail import composing, delivery, metrics, sending
from games.mail.models import YOUR_TURN, Mail, MailAddress, MailStatus


def users_with_digest() -> list[int]:
    return list(Mail.objects.filter(status=MailStatus.IN_DIGEST)
                .values_list("user_id", flat=True).distinct().order_by("user_id"))


def send_digest(user_id: int) -> str:
    """One player's digest: sent, skipped (nothing left to tell, or no confirmed address)
    or failed (the rows stay for tomorrow). Its rows are locked while it goes, so two runs
    never send it twice."""
    with transaction.atomic():
        rows = list(Mail.objects.select_for_update(skip_locked=True)
                    .filter(user_id=user_id, status=MailStatus.IN_DIGEST).order_by("id"))
        address = MailAddress.objects.filter(user_id=user_id).select_related("user").first()
        if not rows:
            return "skipped"
        listed, dropped = [], []
        for row in rows:
            if (address is None or address.verified_at is None
                    or delivery.muted(address, row.event_type)
                    or (row.event_type == YOUR_TURN and not delivery.still_your_turn(row))):
                dropped.append(row.pk)
            else:
                listed.append(row)
        Mail.objects.filter(pk__in=dropped).update(status=MailStatus.SKIPPED,
                                                   reason="digest_not_needed")
        if not listed:
            return "skipped"
        error = sending.send(composing.digest_mail(
            address, [(row.event_type, row.data) for row in listed]), "digest")
        if error is not None:
            return "failed"
        Mail.objects.filter(pk__in=[row.pk for row in listed]).update(
            status=MailStatus.DIGESTED, sent_at=timezone.now())
        for row in listed:
            metrics.counted(row.event_type, "sent")
        return "sent"
