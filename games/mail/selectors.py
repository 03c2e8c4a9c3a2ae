"""Reads of the mail capability."""

from __future__ import annotations

from games.mail.models import MailAddress


def address_of(user) -> MailAddress | None:
    return MailAddress.objects.filter(user=user).first()
