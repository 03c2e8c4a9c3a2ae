"""A digest's "stop these digests" link stops the digest, not all e-mail (review
finding: it turned every event type's e-mail off): the player is off the digest and
keeps the e-mails they allow, which then come as things happen. Its RFC 8058 one-click
header still stops all e-mail: a mail client's "unsubscribe" pressed on a digest must
not bring more mail. Received from a real SMTP server, clicked in a client without a
session."""

from __future__ import annotations

import pytest
from django.test import Client

from games.dispatch import enqueue
from games.mail.models import MailAddress
from games.notifications.preferences import allows

pytestmark = pytest.mark.django_db(transaction=True)

KINDS = ("your_turn", "invitation", "reminder")


def test_the_digests_link_stops_the_digest_and_its_header_all_mail(
        make_user, smtp, eager, verified):
    ann = make_user()
    address = verified(ann)
    address.daily_digest = True
    address.save()
    enqueue("games.mail.tasks.mail_event", "invitation", ann.pk,
            {"invitation_id": 1, "match_id": 2, "game": "han"})
    enqueue("games.mail.tasks.send_digests")
    (digest,) = smtp.wait_for(1)
    digest_link, all_link = digest.links("unsubscribe")
    header = str(digest.message["List-Unsubscribe"]).strip()
    assert header == f"<{all_link}>"
    assert "daily digests (mail each event as it happens)" in digest.text

    stranger = Client()
    page = stranger.get(digest_link.removeprefix("http://testserver"))
    assert page.status_code == 200 and "Stop the daily digest?" in page.content.decode()
    assert stranger.post(digest_link.removeprefix("http://testserver")).status_code == 200
    assert MailAddress.objects.get(user=ann).daily_digest is False
    assert all(allows(ann.pk, "email", kind) for kind in KINDS)  # e-mail stays on

    enqueue("games.mail.tasks.mail_event", "invitation", ann.pk,
            {"invitation_id": 3, "match_id": 4, "game": "han"})
    (_digest, at_once) = smtp.wait_for(2)  # no digest now: mailed as it happens
    assert "match 4" in at_once.text

    one_click = stranger.post(all_link.removeprefix("http://testserver"),
                              "List-Unsubscribe=One-Click",
                              content_type="application/x-www-form-urlencoded")
    assert one_click.status_code == 200
    assert not any(allows(ann.pk, "email", kind) for kind in KINDS)
