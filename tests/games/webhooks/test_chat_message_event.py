"""The ``chat_message`` webhook (docs/chat.md "Webhooks"): a committed message goes, signed,
to the readers at the table the app serves, never its author nor anyone who muted the
author, with ids and the text only. A real Celery worker sends to a local receiver that
verifies every delivery with the ``standardwebhooks`` package."""

from __future__ import annotations

import pytest

from games.chat import mutes, services
from games.webhooks.models import Delivery
from tests.games.chat.support import two_player_han
from tests.games.matches.test_celery_worker import worker  # noqa: F401 (fixture)
from tests.games.webhooks.receiver import running_receiver
from tests.games.webhooks.support import connect, make_app, register

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker,
              pytest.mark.slow]

CHAT_KEYS = {"match_id", "room", "message_id", "author_id", "text", "user_id"}


def test_a_message_reaches_the_tables_readers_but_its_author_and_muters(
        worker, make_user, make_auth_client):  # noqa: F811
    owner, alice, bob, carol = make_user(), make_user(), make_user(), make_user()
    app = make_app(owner)
    for user in (alice, bob, carol):
        connect(user, app)
    with running_receiver() as receiver:
        created = register(make_auth_client(owner), app, receiver.url,
                           event_types=["chat_message"])
        assert created.status_code == 201, created.content
        receiver.secret = created.json()["secret"]
        match_id = two_player_han(alice, bob).pk
        mutes.mute(bob, carol.username)
        good_luck = services.send_message(match_id, "players", alice, "good luck")
        hello = services.send_message(match_id, "spectators", carol, "hello players")
        arrivals = receiver.wait_for(lambda seen: len(seen) >= 2, timeout=60)

    assert all(arrival.verified for arrival in arrivals)
    got = sorted((arrival.payload["data"]["user_id"], arrival.payload["data"]["text"])
                 for arrival in arrivals)
    # the players' room: bob, not its author; the spectators' room of a listed match:
    # alice (players read it), not bob who muted carol, not carol who wrote it
    assert got == sorted([(bob.pk, "good luck"), (alice.pk, "hello players")])
    for arrival in arrivals:
        assert arrival.payload["type"] == "chat_message"
        assert set(arrival.payload["data"]) == CHAT_KEYS
        assert arrival.payload["data"]["match_id"] == match_id
    by_text = {arrival.payload["data"]["text"]: arrival.payload["data"] for arrival in arrivals}
    assert by_text["good luck"]["message_id"] == good_luck["id"]
    assert by_text["good luck"]["author_id"] == alice.pk
    assert by_text["hello players"]["room"] == "spectators"
    assert by_text["hello players"]["message_id"] == hello["id"]
    # every delivery made for these messages was one of those two: nobody else got one
    assert sorted(Delivery.objects.filter(event_type="chat_message")
                  .values_list("payload__data__user_id", flat=True)) == sorted([bob.pk,
                                                                                alice.pk])
