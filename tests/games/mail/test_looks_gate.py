"""Looks (games/mail/looks.py) are kept only for seated players, and only while anyone has
a confirmed address (games/mail/mailable.py, issue 45): with nobody mailable a REST or
GraphQL read, a socket's snapshot, a push and a read up to date do no mail work (no
query, no Redis write); with one address, seated looks count on every path and a
spectator's on none. On the event loop a stale answer is asked again in the hub's threads,
and the process that confirms an address knows at once."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django_redis import get_redis_connection

from games.live.frames import seat_key
from games.mail import looks, services, tokens
from games.mail.mailable import anyone_mailable
from games.mail.models import MailAddress
from games.matches import selectors
from games.matches import services as match_services
from games.play import hub as hub_module
from games.play import operations
from games.play.connection import PlayConnection
from games.play.hub import Follow, Hub, _MatchFollowers
from infra.background_sends import wait_until_sent
from tests.games.graphql.support import gql, make_player
from tests.games.support import match_url

pytestmark = pytest.mark.django_db(transaction=True)  # the hub's threads read the rows


def _match_of(ann, bob):
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    return selectors.get_match(match.pk)


def _seated_socket(match, user) -> PlayConnection:
    socket = PlayConnection({"type": "websocket", "headers": [], "client": ("10.0.0.1", 1)},
                            None, None)
    socket.user = user
    socket.follows[match.pk] = Follow(ply=match.ply, status=match.status,
                                      seat=selectors.seat_of(match, user))
    return socket


def _push(hub: Hub, match, socket: PlayConnection, since: int) -> None:
    """What a committed move's Pub/Sub message hands the hub (games/live/fanout.py)."""
    seat = socket.follows[match.pk].seat
    hub.deliver({"match_id": match.pk, "since": since, "ply": since + 1, "status": "active",
                 "holders": {str(socket.user.pk): seat},
                 "frames": {seat_key(seat): '{"op":"update"}'}})


def _resync(socket: PlayConnection, match, ply: int) -> None:
    """What the hub's read up to date hands a follower (games/play/hub.py ``_refresh``)."""
    socket.send_update(match.pk, {"match": str(match.pk), "ply": ply, "status": "active",
                                  "seat": socket.follows[match.pk].seat,
                                  "since": socket.follows[match.pk].ply, "moves": []})


def _frames(socket: PlayConnection) -> list[str]:
    frames = []
    while not socket._queue.empty():
        frames.append(socket._queue.get_nowait())
    return frames


def _seen_keys() -> list:
    assert wait_until_sent()
    return list(get_redis_connection("default").scan_iter("mail:seen:*"))


def _on_loop(hub: Hub, monkeypatch, scenario) -> None:
    monkeypatch.setattr(hub_module, "_hub", hub)  # what every hub() of the socket returns
    asyncio.run(scenario())


def test_with_nobody_mailable_no_path_does_mail_work(make_user, make_auth_client, settings,
                                                     monkeypatch):
    settings.MAIL_LOOKS_CHECK_SECONDS = 3600
    ann, bob = make_player(make_user), make_user()
    match = _match_of(ann.user, bob)
    assert anyone_mailable() is False  # asked once, here
    with CaptureQueriesContext(connection) as reads:
        assert make_auth_client(bob).get(match_url(match.pk)).status_code == 200
        assert gql(f"{{ match(id: {match.pk}) {{ id }} }}", token=ann.token)["data"]["match"]
        operations.subscription(match.pk, None, bob, "test")
    assert not [query for query in reads.captured_queries
                if "games_mailaddress" in query["sql"]]

    hub = Hub()
    hub._matches[match.pk] = _MatchFollowers(sockets={socket := _seated_socket(match, bob)})

    async def scenario():
        _push(hub, match, socket, since=match.ply)
        _resync(socket, match, match.ply + 2)
        assert hub.looks._asking is None  # a fresh answer: nothing asked on the loop

    _on_loop(hub, monkeypatch, scenario)
    assert len(_frames(socket)) == 2  # both frames went out
    assert _seen_keys() == []


def test_with_one_address_seated_looks_count_and_spectators_do_not(
        make_user, make_auth_client, verified):
    ann, bob, carl = make_user(), make_user(), make_player(make_user)
    match = _match_of(ann, bob)
    verified(ann)
    assert make_auth_client(bob).get(match_url(match.pk)).status_code == 200
    assert make_auth_client(carl.user).get(match_url(match.pk)).status_code == 200
    assert gql(f"{{ match(id: {match.pk}) {{ id }} }}", token=carl.token)["data"]["match"]
    operations.subscription(match.pk, None, carl.user, "test")
    assert wait_until_sent()
    assert looks.seen_ply(bob.pk, match.pk) == match.ply  # not mailable himself: kept anyway
    assert looks.seen_ply(carl.user.pk, match.pk) == -1


def test_on_the_loop_a_stale_answer_is_asked_in_the_threads(make_user, settings,
                                                            monkeypatch):
    """A push and a read up to date, with the answer "nobody" learnt before an address was
    confirmed elsewhere: counted by it while fresh; once stale, asked again off the loop,
    and the next look is kept."""
    settings.MAIL_LOOKS_CHECK_SECONDS = 3600
    ann, bob = make_user(), make_user()
    match = _match_of(ann, bob)
    anyone_mailable.set(False)
    MailAddress.objects.create(user=bob, address="bob@example.org", verified_at=timezone.now())
    hub = Hub()
    hub._matches[match.pk] = _MatchFollowers(sockets={socket := _seated_socket(match, ann)})

    async def scenario():
        _push(hub, match, socket, since=match.ply)
        assert hub.looks._asking is None and not anyone_mailable.known()
        settings.MAIL_LOOKS_CHECK_SECONDS = 0  # the period is over
        _push(hub, match, socket, since=match.ply + 1)
        await hub.looks._asking  # in the hub's threads
        assert anyone_mailable.known()
        settings.MAIL_LOOKS_CHECK_SECONDS = 3600
        _resync(socket, match, match.ply + 5)  # a seated read up to date is a look
        await hub.run(connections.close_all)  # the thread's connection: the test's end

    _on_loop(hub, monkeypatch, scenario)
    assert wait_until_sent()
    assert looks.seen_ply(ann.pk, match.pk) == match.ply + 5


def test_the_confirming_process_tracks_looks_at_once(make_user, settings,
                                                     django_capture_on_commit_callbacks):
    settings.MAIL_LOOKS_CHECK_SECONDS = 3600
    ann = make_user()
    row = MailAddress.objects.create(user=ann, address="ann@example.org")
    anyone_mailable.set(False)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.confirm(tokens.confirmation_token(ann.pk, row.address)) is not None
    assert anyone_mailable.known() and not anyone_mailable.stale()
