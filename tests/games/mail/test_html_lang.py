"""Each mail's HTML part declares the mail's language (review finding: every mail said
``lang="en"``, a German one too: the templates read LANGUAGE_CODE, which no request's
context processor sets when a task renders a mail). Received from a real SMTP server."""

from __future__ import annotations

import re

import pytest

from games.dispatch import enqueue
from games.mail import services

pytestmark = pytest.mark.django_db(transaction=True)


def _lang(html: str) -> str:
    (found,) = re.findall(r'<html lang="([^"]*)"', html)
    return found


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_mail_declares_its_language(make_user, smtp, eager, verified, language):
    reader = make_user()
    address = verified(reader, language=language)
    enqueue("games.mail.tasks.mail_event", "invitation", reader.pk,
            {"invitation_id": 3, "match_id": 4, "game": "han"})
    address.daily_digest = True
    address.save()
    enqueue("games.mail.tasks.mail_event", "invitation", reader.pk,
            {"invitation_id": 4, "match_id": 5, "game": "han"})
    enqueue("games.mail.tasks.send_digests")
    newcomer = make_user()
    services.set_address(newcomer, f"{newcomer.username}@example.org", language)
    confirmation, event, digest = sorted(smtp.wait_for(3),
                                         key=lambda mail: not mail.links("confirm"))
    assert "4" in event.text and "5" in digest.text and confirmation.links("confirm")
    assert [_lang(mail.html) for mail in (event, digest, confirmation)] == [language] * 3
