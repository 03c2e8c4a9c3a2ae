"""The notification fan-out's events as mails, against a real SMTP server: what arrives
(both parts, the player's language, no hidden information), the unsubscribe link from the
received mail working in a plain client, "your turn" only after the wait and only to a
player who has not looked, once per match and turn however often the task runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone
from prometheus_client import REGISTRY

from games.dispatch import enqueue
from games.mail.models import Mail, MailStatus
from games.matches import selectors
from games.matches import services as match_services
from games.notifications.preferences import allows
from infra.background_sends import wait_until_sent
from tests.games.support import assert_no_leak, match_url

pytestmark = pytest.mark.django_db(transaction=True)

MAIL_EVENT = "games.mail.tasks.mail_event"
SEND_DUE = "games.mail.tasks.send_due"


def _waiting_match(ann, bob):
    """A dealt Han match between two people; (match, the user to act, their seat)."""
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    match = selectors.get_match(match.pk)
    seat = match.to_act[0]
    mover = ann if match.seats.get(position=seat).user_id == ann.pk else bob
    return match, mover, seat


def _turn(match, seat) -> dict:
    return {"match_id": match.pk, "game": match.game, "ply": match.ply, "seat": seat}


def _count(outcome: str, kind: str = "invitation") -> float:
    return REGISTRY.get_sample_value("mail_messages_total",
                                     {"kind": kind, "outcome": outcome}) or 0.0


def _later(minutes: float):
    return time_machine.travel(timezone.now() + timedelta(minutes=minutes), tick=True)


def test_an_invitation_arrives_and_its_unsubscribe_link_works_without_signing_in(
        make_user, smtp, eager, verified):
    ann = make_user()
    verified(ann)
    sent, muted = _count("sent"), _count("muted")
    latencies = REGISTRY.get_sample_value("mail_send_seconds_count") or 0.0
    enqueue(MAIL_EVENT, "invitation", ann.pk, {"invitation_id": 7, "match_id": 3,
                                                "game": "han"})
    (mail,) = smtp.wait_for(1)
    assert _count("sent") == sent + 1
    assert REGISTRY.get_sample_value("mail_send_seconds_count") == latencies + 1
    assert mail.recipients == [f"{ann.username}@example.org"]
    assert "invited" in mail.subject and "Han" in mail.subject
    assert "match 3" in mail.text and "match 3" in mail.html
    type_link, all_link = mail.links("unsubscribe")
    assert str(mail.message["List-Unsubscribe"]).strip() == f"<{type_link}>"
    assert mail.message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert type_link in mail.html.replace("&amp;", "&")

    stranger = Client()  # no session, no token
    path = type_link.removeprefix("http://testserver")
    assert stranger.get(path).status_code == 200
    assert allows(ann.pk, "email", "invitation")  # GET changes nothing
    assert stranger.post(path).status_code == 200
    assert not allows(ann.pk, "email", "invitation")
    assert allows(ann.pk, "email", "your_turn")  # only that event type
    enqueue(MAIL_EVENT, "invitation", ann.pk, {"invitation_id": 8, "match_id": 4})
    assert not Mail.objects.filter(key="invitation:8").exists()
    assert _count("muted") == muted + 1

    # RFC 8058 one-click: the mail client POSTs the header's URL, no page
    one_click = stranger.post(all_link.removeprefix("http://testserver"),
                              "List-Unsubscribe=One-Click",
                              content_type="application/x-www-form-urlencoded")
    assert one_click.status_code == 200
    assert not any(allows(ann.pk, "email", kind) for kind in
                   ("your_turn", "reminder", "match_finished", "invitation"))
    assert len(smtp.received) == 1
    assert stranger.post(path[:-4] + "xyz/").status_code == 400  # a forged link


def test_your_turn_waits_and_is_mailed_once_per_match_and_turn(
        make_user, smtp, eager, verified, settings):
    settings.MAIL_YOUR_TURN_AFTER_MINUTES = 10
    ann, bob = make_user(), make_user()
    match, mover, seat = _waiting_match(ann, bob)
    verified(mover)
    enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
    enqueue(SEND_DUE)
    assert smtp.received == []  # not before the wait
    with _later(11):
        enqueue(SEND_DUE)
        (mail,) = smtp.wait_for(1)
        # the task again (a retry, a second event of the turn) and the sweep again: no more
        enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
        enqueue(SEND_DUE)
    with _later(30):
        enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
        enqueue(SEND_DUE)
    assert len(smtp.received) == 1
    assert Mail.objects.get().status == MailStatus.SENT
    assert "Your turn" in mail.subject and f"match {match.pk}" in mail.text
    fresh = selectors.get_match(match.pk)
    for part in (mail.text, mail.html):
        assert_no_leak({"mail": part}, game="han", state=fresh.state, seed=fresh.seed,
                       reader=seat, where="your-turn mail")


def test_a_player_who_looked_is_not_mailed(make_user, make_auth_client, smtp, eager, verified,
                                           settings):
    settings.MAIL_YOUR_TURN_AFTER_MINUTES = 10
    ann, bob = make_user(), make_user()
    match, mover, seat = _waiting_match(ann, bob)
    verified(mover)
    enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
    client = make_auth_client(mover)
    for _ in range(3):  # a poller: one record, not one write per read
        assert client.get(match_url(match.pk)).status_code == 200
    assert wait_until_sent()
    with _later(11):
        enqueue(SEND_DUE)
    assert smtp.received == []
    row = Mail.objects.get()
    assert (row.status, row.reason) == (MailStatus.SKIPPED, "looked_or_moved_on")


def test_a_turn_that_passed_is_not_mailed(make_user, smtp, eager, verified, settings):
    settings.MAIL_YOUR_TURN_AFTER_MINUTES = 10
    ann, bob = make_user(), make_user()
    match, mover, seat = _waiting_match(ann, bob)
    verified(mover)
    enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
    legal = selectors.legal_moves_for(match, mover)["moves"]
    match_services.submit_move(match_id=match.pk, user=mover, move=legal[0])
    with _later(11):
        enqueue(SEND_DUE)
    # the fan-out may tell the mover of a later turn (Han's turn has several decisions);
    # the turn that passed is never mailed
    assert Mail.objects.get(key=f"your_turn:{match.pk}:{match.ply}").status == (
        MailStatus.SKIPPED)
    assert not any(f"(move {match.ply})" in mail.text for mail in smtp.received)


def test_a_german_player_is_mailed_in_german(make_user, smtp, eager, verified, settings):
    settings.MAIL_YOUR_TURN_AFTER_MINUTES = 0
    ann, bob = make_user(), make_user()
    match, mover, seat = _waiting_match(ann, bob)
    verified(mover, language="de")
    enqueue(MAIL_EVENT, "your_turn", mover.pk, _turn(match, seat))
    with _later(1):
        enqueue(SEND_DUE)
    (mail,) = smtp.wait_for(1)
    assert "Sie sind am Zug" in mail.subject, mail.subject
    assert "Sie sind am Zug" in mail.text and "Sie sind am Zug" in mail.html
    assert "Diese E-Mails abbestellen" in mail.text or "abbestellen" in mail.text, mail.text


def test_a_mail_server_that_fails_is_tried_again_later(make_user, eager, verified, settings):
    from tests.ports import free_port

    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = "127.0.0.1", free_port()  # nobody listens
    settings.MAIL_MAX_ATTEMPTS = 2
    ann = make_user()
    verified(ann)
    enqueue(MAIL_EVENT, "reminder", ann.pk, {"match_id": 5, "game": "han", "ply": 3,
                                              "deadline": "2026-12-07T10:00:00+00:00"})
    row = Mail.objects.get()
    assert (row.status, row.attempts) == (MailStatus.PENDING, 1)
    assert row.due_at > timezone.now()
    with _later(2):
        enqueue(SEND_DUE)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.reason) == (MailStatus.FAILED, 2, "server_refused")


def test_graphql_and_the_play_socket_count_as_looking(make_user, eager, verified):
    """What a player sees over GraphQL's ``match`` and a play socket's subscription is a
    look (games/mail/looks.py), as a REST read is; a spectator's is not recorded. (Looks
    are kept while anyone has a confirmed address: bob has.)"""
    from games.mail import looks
    from games.play import operations
    from tests.games.graphql.support import gql, make_player

    ann = make_player(make_user)
    bob, carl = make_user(), make_user()
    match, _mover, _seat = _waiting_match(ann.user, bob)
    other = match_services.create_match(user=carl, game="han", players=2)
    match_services.join_match(user=bob, match_id=other.pk)
    other = selectors.get_match(other.pk)
    verified(bob)

    assert gql(f"{{ match(id: {match.pk}) {{ id }} }}", token=ann.token)["data"]["match"]
    operations.subscription(other.pk, None, bob, "test")  # the socket's snapshot, seated
    operations.subscription(other.pk, None, ann.user, "test")  # a spectator there
    assert wait_until_sent()
    assert looks.seen_ply(ann.user.pk, match.pk) == match.ply
    assert looks.seen_ply(bob.pk, other.pk) == other.ply
    assert looks.seen_ply(ann.user.pk, other.pk) == -1
