"""Reads of the mail capability."""

from __future__ import annotations

from games.mail.models import MailAddress


def address_of(user) -> MailAddress | None:
    return MailAddress.objects.filter(user=user).first()


def settings_row(user) -> dict | None:
    """The player's address and choices as plain values (the personal-data export), None
    when they set no address."""
    row = address_of(user)
    if row is None:
        return None
    return {"address": row.address, "verified": row.verified_at is not None,
            "verified_at": row.verified_at, "language": row.language,
            "daily_digest": row.daily_digest}
