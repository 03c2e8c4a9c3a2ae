"""A chat message in the players' room is a ``chat_message`` notice (off by default) to
the other seated players who turned it on and did not mute the author: pushed, decrypted
at the local push service, with ids only, never the text."""

from __future__ import annotations

import pytest

from games.matches import services as match_services
from tests.games.notifications.push_receiver import running_push_service
from tests.games.notifications.test_push import vapid_key  # noqa: F401 (fixture)
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_players_chat_message_is_a_notice_without_its_text(
        vapid_key, make_user, make_auth_client):  # noqa: F811
    ann, bob = make_user(), make_user()
    ann_client, bob_client = make_auth_client(ann), make_auth_client(bob)
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    with running_push_service() as ann_browser, running_push_service() as bob_browser:
        for client, browser in ((ann_client, ann_browser), (bob_client, bob_browser)):
            client.post(f"{API}/me/push-subscriptions/?lang=de", browser.subscription(),
                        format="json")
        bob_client.patch(f"{API}/me/notification-preferences/",
                         {"push": {"chat_message": True}}, format="json")
        with eager_celery():
            sent = ann_client.post(f"{API}/matches/{match.pk}/chat/players/",
                                   {"text": "secret plan"}, format="json")
            assert sent.status_code == 201, sent.content
            (arrival,) = bob_browser.wait_for(1)
            # ann muted by bob: her next message reaches nobody's browser
            assert bob_client.put(f"{API}/chat/mutes/{ann.username}/").status_code in (
                200, 201, 204)
            ann_client.post(f"{API}/matches/{match.pk}/chat/players/", {"text": "again"},
                            format="json")
        assert ann_browser.arrivals == []  # the author is not told of her own message
        assert len(bob_browser.arrivals) == 1
    assert arrival.error == ""
    assert arrival.message["type"] == "chat_message"
    assert arrival.message["title"] == "Neue Chatnachricht"
    assert arrival.message["data"] == {"match_id": match.pk, "game": "hansa",
                                       "room": "players", "message_id": sent.json()["id"]}
    assert "secret plan" not in str(arrival.message)
