"""The daily digest against a real SMTP server: a player who chose it is mailed nothing at
once, then one mail listing the day's events (a "your turn" since looked at left out);
the beat task run again sends nothing more."""

from __future__ import annotations

import pytest

from games.dispatch import enqueue
from games.mail.models import Mail, MailStatus
from games.matches import selectors
from games.matches import services as match_services
from infra.background_sends import wait_until_sent
from tests.games.support import match_url

pytestmark = pytest.mark.django_db(transaction=True)

MAIL_EVENT = "games.mail.tasks.mail_event"


def _match_waiting_for(ann, bob):
    """A dealt Han match of ann and bob where ann is to act (deals until one is)."""
    for _ in range(40):
        match = match_services.create_match(user=ann, game="han", players=2)
        match_services.join_match(user=bob, match_id=match.pk)
        match = selectors.get_match(match.pk)
        seat = match.to_act[0]
        if match.seats.get(position=seat).user_id == ann.pk:
            return match, seat
    raise AssertionError("ann was never first to act")


def test_one_digest_a_day_lists_what_happened(make_user, make_auth_client, smtp, eager,
                                              verified):
    ann, bob, carl = make_user(), make_user(), make_user()
    address = verified(ann)
    address.daily_digest = True
    address.save()
    looked_at, looked_seat = _match_waiting_for(ann, carl)
    waiting, seat = _match_waiting_for(ann, bob)
    events = [("invitation", {"invitation_id": 9, "match_id": 77, "game": "hansa"}),
              ("reminder", {"match_id": 78, "game": "han", "ply": 4,
                            "deadline": "2026-12-07T10:00:00+00:00"}),
              ("your_turn", {"match_id": waiting.pk, "game": "han", "ply": waiting.ply,
                             "seat": seat}),
              ("your_turn", {"match_id": looked_at.pk, "game": "han", "ply": looked_at.ply,
                             "seat": looked_seat})]
    assert make_auth_client(ann).get(match_url(looked_at.pk)).status_code == 200
    assert wait_until_sent()
    for kind, data in events:
        enqueue(MAIL_EVENT, kind, ann.pk, data)
    assert smtp.received == []
    assert Mail.objects.filter(status=MailStatus.IN_DIGEST).count() == len(events)

    enqueue("games.mail.tasks.send_digests")
    (digest,) = smtp.wait_for(1)
    assert digest.recipients == [address.address]
    assert "match 77 of The Queen of Hansa" in digest.text
    assert "match 78" in digest.text and "match 78" in digest.html
    assert f"your turn in match {waiting.pk} of Han" in digest.text
    assert f"match {looked_at.pk} of" not in digest.text  # looked at: left out
    assert Mail.objects.get(key__startswith=f"your_turn:{looked_at.pk}:").reason == (
        "digest_not_needed")
    assert digest.links("unsubscribe")  # every mail has its link
    enqueue("games.mail.tasks.send_digests")
    assert len(smtp.received) == 1
    assert not Mail.objects.filter(status=MailStatus.IN_DIGEST).exists()
