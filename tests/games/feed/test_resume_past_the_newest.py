"""A feed resumed from an id past the newest event of the reader's feed is refused with a
400 ``last_event_id_ahead``, on every way in: GET /api/v1/stream/ (query and
``Last-Event-ID``), GraphQL ``myEvents`` and the play socket's ``feed`` op (its own
test: tests/games/play/test_feed_and_lobby.py). It used to answer silence: a stream that
waited for events that never come (issue 22, item 6)."""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest

from games.feed.models import FeedEvent
from games.feed.selectors import LastEventIdAhead, resume_point
from games.matches import services as match_services
from tests.games.graphql.asgi_server import Subscriber, channel_layers_setting, running_daphne
from tests.games.graphql.support import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def _with_events(make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=alice.user, game="han", players=2)
    match_services.join_match(user=bob.user, match_id=match.pk)  # started: events for both
    newest = FeedEvent.objects.filter(user=alice.user).order_by("-pk").first().pk
    return alice, bob, newest


def test_resume_point_takes_every_id_up_to_the_newest_and_refuses_beyond(make_user):
    alice, bob, newest = _with_events(make_user)
    assert resume_point(alice.user, None) == 0
    assert resume_point(alice.user, "0") == 0
    assert resume_point(alice.user, str(newest)) == newest
    assert resume_point(alice.user, newest - 1) == newest - 1
    with pytest.raises(LastEventIdAhead) as refused:
        resume_point(alice.user, newest + 1000)
    assert refused.value.status_code == 400
    assert refused.value.code == "last_event_id_ahead"
    assert refused.value.details == {"last_event_id": newest + 1000, "newest": newest}
    # an id of bob's, past alice's newest: beyond her feed too
    bobs_newest = FeedEvent.objects.filter(user=bob.user).order_by("-pk").first().pk
    if bobs_newest > newest:
        with pytest.raises(LastEventIdAhead):
            resume_point(alice.user, bobs_newest)
    nobody = make_user()  # no events at all: anything but 0 is ahead
    with pytest.raises(LastEventIdAhead):
        resume_point(nobody, 1)


@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()
    with running_daphne() as address:
        yield address


def _get(server, headers, query=""):
    conn = http.client.HTTPConnection(*server.split(":"), timeout=15)
    conn.request("GET", f"/api/v1/stream/{query}", headers=headers)
    response = conn.getresponse()
    status, first = response.status, response.readline()
    conn.close()
    return status, first


def test_the_stream_and_my_events_refuse_an_id_past_the_newest(server, make_user):
    alice, _bob, newest = _with_events(make_user)
    auth = {"Authorization": f"Token {alice.token}"}
    for headers, query in (
        (auth, f"?last_event_id={newest + 1}"),
        ({**auth, "Last-Event-ID": str(newest + 1)}, ""),
    ):
        status, body = _get(server, headers, query)
        assert status == 400
        error = json.loads(body)["error"]
        assert error["code"] == "last_event_id_ahead"
        assert error["details"] == {"last_event_id": newest + 1, "newest": newest}
    # the newest itself resumes: the stream opens (its first line is empty)
    assert _get(server, auth, f"?last_event_id={newest}") == (200, b"\n")

    async def subscription():
        subscriber = Subscriber(server, token=alice.token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(
                "subscription($last: ID) { myEvents(lastEventId: $last) { id } }",
                {"last": str(newest + 1)})
            message = await subscriber.receive()
            errors = message["payload"] if message["type"] == "error" else \
                message["payload"]["errors"]
            return errors[0]["extensions"]["code"]
        finally:
            await subscriber.close()

    assert asyncio.run(subscription()) == "last_event_id_ahead"
