"""The per-user feed: events are stored for the right user only (your turn, match started
and finished, invitation received; matched is in tests/quickmatch), served live over a
real ASGI server (daphne) as NDJSON on GET /api/v1/stream/ and as the GraphQL
subscription myEvents, replayed after a reconnect from the last event id; bad requests
are 4xx."""

from __future__ import annotations

import asyncio
import http.client
import json

import pytest
from django.db import connection

from games.feed.models import FeedEvent
from games.lobby import services as lobby
from games.matches import selectors, services
from games.matches import services as match_services
from tests.games.graphql.asgi_server import Subscriber, channel_layers_setting, running_daphne
from tests.games.graphql.support import make_player
from tests.games.support import API, assert_api_error, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)


def _kinds(user) -> list[tuple[str, dict]]:
    return list(FeedEvent.objects.filter(user=user).order_by("pk")
                .values_list("kind", "payload"))


def _han_match(users):
    match = match_services.create_match(user=users[0], game="han", players=len(users))
    for user in users[1:]:
        match_services.join_match(user=user, match_id=match.pk)
    return selectors.get_match(match.pk)


def _play_one(match_id) -> int:
    """The seat to act plays its first legal move; returns that seat."""
    match = selectors.get_match(match_id)
    seat = selectors.to_act_of(match)[0]
    user = next(s.user for s in match.seats.all() if s.position == seat)
    move = selectors.legal_moves_for(match, user)["moves"][0]
    services.submit_move(match_id=match_id, user=user, move=move)
    return seat


def test_events_reach_exactly_the_users_they_concern(make_user):
    alice, bob, carol, outsider = (make_user() for _ in range(4))
    match = _han_match([alice, bob, carol])
    for user in (alice, bob, carol):
        assert ("match_started", {"match_id": match.pk, "game": "han", "players": 3}) in \
            _kinds(user)
    first = selectors.to_act_of(match)[0]
    users = {s.position: s.user for s in match.seats.all()}
    turns = {user.pk: [p for k, p in _kinds(user) if k == "your_turn"]
             for user in users.values()}
    assert turns[users[first].pk] == [{"match_id": match.pk, "game": "han", "ply": 0,
                                       "seat": first, "deadline": None}]
    assert all(not turns[u.pk] for p, u in users.items() if p != first)
    for _ in range(20):  # a Han turn may take several moves: play until the turn passes
        _play_one(match.pk)
        now = selectors.get_match(match.pk)
        following = selectors.to_act_of(now)[0]
        if following != first:
            break
    assert following != first
    assert [p["ply"] for k, p in _kinds(users[following]) if k == "your_turn"][-1] == now.ply
    lobby.invite(user=alice, match_id=match_services.create_match(
        user=alice, game="hansa", players=2).pk, usernames=[outsider.username])
    assert [k for k, _p in _kinds(outsider)] == ["invitation_received"]
    admin = make_user(is_staff=True, is_superuser=True)  # after a move only an admin aborts
    match_services.abort_match(user=admin, match_id=match.pk)
    for user in (alice, bob, carol):
        assert _kinds(user)[-1] == ("match_finished", {"match_id": match.pk, "game": "han",
                                                       "status": "aborted"})
    # announcing the same fact again stores nothing new
    count = FeedEvent.objects.count()
    from games.feed import services as feed
    from games.matches.changes import ChangeKind, MatchChanged

    feed.announce_change(MatchChanged(
        kind=ChangeKind.STARTED, match_id=match.pk, ply=match.ply, status=match.status,
        to_act=[], request_id=None, match=match, seats=list(match.seats.all())))
    assert FeedEvent.objects.count() == count


def test_a_clocked_turn_names_its_deadline(make_user):
    alice, bob = make_user(), make_user()
    match = match_services.create_match(user=alice, game="hansa", players=2,
                                        time_control="turn-based-1d")
    match_services.join_match(user=bob, match_id=match.pk)
    turns = [p for k, p in _kinds(alice) + _kinds(bob) if k == "your_turn"]
    assert turns and all(p["deadline"] for p in turns)


# -- live, over a real server -------------------------------------------------------------------
@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()  # the server's layer, for our pushes
    with running_daphne() as address:
        yield address


class Stream:
    """GET /api/v1/stream/ read line by line (http.client decodes the chunks)."""

    def __init__(self, address, token, last_event_id=None):
        host, port = address.split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=15)
        query = f"?last_event_id={last_event_id}" if last_event_id is not None else ""
        self.conn.request("GET", f"/api/v1/stream/{query}",
                          headers={"Authorization": f"Token {token}"})
        self.response = self.conn.getresponse()

    def next_event(self) -> dict:
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.strip():
                return json.loads(line)

    def close(self):
        self.conn.close()


def _in_thread(function, *args):
    def run():
        try:
            return function(*args)
        finally:
            connection.close()
    return asyncio.to_thread(run)


def test_the_stream_delivers_your_events_live_and_replays_after_a_reconnect(server,
                                                                            make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    match = _han_match([alice.user, bob.user])
    alices = [e.pk for e in FeedEvent.objects.filter(user=alice.user).order_by("pk")]
    bobs = {e.pk for e in FeedEvent.objects.filter(user=bob.user)}
    stream = Stream(server, alice.token, last_event_id=0)
    assert stream.response.status == 200
    assert stream.response.getheader("Content-Type") == "application/x-ndjson"
    backlog = [stream.next_event() for _ in alices]
    assert [event["id"] for event in backlog] == alices
    # now live: moves until alice's turn comes again, each of her events arriving as it
    # is stored, never one of bob's
    seen = list(alices)
    for moves in range(40):
        if moves >= 6 and len(seen) > len(alices):
            break
        _play_one(match.pk)
        mine = [e.pk for e in FeedEvent.objects.filter(user=alice.user, pk__gt=seen[-1])
                .order_by("pk")]
        for expected in mine:
            event = stream.next_event()
            assert event["id"] == expected and event["id"] not in bobs
            seen.append(event["id"])
        bobs = set(FeedEvent.objects.filter(user=bob.user).values_list("pk", flat=True))
    assert len(seen) > len(alices)
    stream.close()
    # offline for a while: moves until alice has missed something (a Han turn may take
    # several moves of one player), then reconnect from the last id seen
    missed = []
    for _ in range(30):
        _play_one(match.pk)
        missed = [e.pk for e in FeedEvent.objects.filter(user=alice.user, pk__gt=seen[-1])
                  .order_by("pk")]
        if missed:
            break
    assert missed
    again = Stream(server, alice.token, last_event_id=seen[-1])
    assert [again.next_event()["id"] for _ in missed] == missed
    again.close()
    # the Last-Event-ID header works as well
    header = http.client.HTTPConnection(*server.split(":"), timeout=15)
    header.request("GET", "/api/v1/stream/", headers={"Authorization": f"Token {bob.token}",
                                                      "Last-Event-ID": str(max(bobs))})
    response = header.getresponse()  # at once, though bob has nothing to replay
    assert response.status == 200 and response.readline() == b"\n"
    header.close()


def test_the_stream_refuses_bad_requests(server, make_user, api_client):
    alice = make_player(make_user)
    for headers, query, status, code in [
        ({}, "", 401, "not_authenticated"),
        ({"Authorization": "Token not-a-token"}, "", 401, "not_authenticated"),
        ({"Authorization": f"Token {alice.token}"}, "?last_event_id=abc", 400,
         "invalid_request"),
        ({"Authorization": f"Token {alice.token}"}, "?last_event_id=-1", 400,
         "invalid_request"),
    ]:
        conn = http.client.HTTPConnection(*server.split(":"), timeout=15)
        conn.request("GET", f"/api/v1/stream/{query}", headers=headers)
        response = conn.getresponse()
        body = json.loads(response.read())
        assert (response.status, body["error"]["code"]) == (status, code)
        conn.close()
    assert_api_error(api_client.post(f"{API}/stream/"), 405, "method_not_allowed")


MY_EVENTS = """subscription($last: ID) { myEvents(lastEventId: $last) { id kind data } }"""


def test_my_events_subscription_replays_then_pushes_only_your_events(server, make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    match = _han_match([alice.user, bob.user])
    alices = [e.pk for e in FeedEvent.objects.filter(user=alice.user).order_by("pk")]

    async def scenario():
        subscriber = Subscriber(server, token=alice.token)
        anonymous = Subscriber(server)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(MY_EVENTS, {"last": "0"})
            got = []
            for _ in alices:
                message = await subscriber.receive()
                assert message["type"] == "next", message
                got.append(int(message["payload"]["data"]["myEvents"]["id"]))
            assert got == alices
            mine = []
            for _ in range(30):  # until alice has something new (a turn of hers)
                await _in_thread(_play_one, match.pk)
                mine = await _in_thread(lambda: [
                    e.pk for e in FeedEvent.objects.filter(user=alice.user, pk__gt=got[-1])
                    .order_by("pk")])
                if mine:
                    break
            assert mine
            for expected in mine:
                event = (await subscriber.receive())["payload"]["data"]["myEvents"]
                assert int(event["id"]) == expected
            assert (await anonymous.open())["type"] == "connection_ack"
            await anonymous.subscribe(MY_EVENTS, {})
            message = await anonymous.receive()
            assert message["type"] in ("error", "next")
            errors = message["payload"] if message["type"] == "error" else \
                message["payload"]["errors"]
            assert errors[0]["extensions"]["code"] == "not_authenticated"
        finally:
            await subscriber.close()
            await anonymous.close()

    with eager_celery():
        asyncio.run(scenario())


def test_a_player_who_resigned_still_hears_that_the_match_finished(make_user):
    from games.clocks import services as clock_services

    alice, bob, carol = make_user(), make_user(), make_user()
    with eager_celery():
        match = _han_match([alice, bob, carol])
        clock_services.resign(user=alice, match_id=match.pk)  # a bot plays her seat out
        clock_services.resign(user=bob, match_id=match.pk)  # one left standing: the end
    finished = [p for k, p in _kinds(alice) if k == "match_finished"]
    assert finished == [{"match_id": match.pk, "game": "han", "status": "finished"}]
