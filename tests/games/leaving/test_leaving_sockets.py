"""Erasing an account ends every open connection of it (issue 25): over a real server
(daphne), the real Redis channel layer and database, a person with a GraphQL websocket
following their match, a feed stream and a play socket erases their account over REST.
The GraphQL socket closes (4403), the stream ends and the play socket is told
``access_revoked`` and closed (4401) on the announcement, before their opponent's next
move reaches them; the other player's connections go on."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from accounts import revocation
from accounts.models import User
from tests.accounts.test_revocation import UPDATES, _in_thread, _next_or_close, _play_one
from tests.conftest import DEFAULT_PASSWORD
from tests.games.feed.test_feed import Stream
from tests.games.graphql.asgi_server import (
    Subscriber,
    channel_layers_setting,
    http_json,
    running_daphne,
)
from tests.games.graphql.support import make_player
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _last_event_id(user_id: int) -> int:
    from games.feed.models import FeedEvent

    return max(FeedEvent.objects.filter(user_id=user_id).values_list("pk", flat=True),
               default=0)


def test_erasing_closes_every_open_connection_at_once(settings, make_user):
    from games.matches import services as match_services

    settings.CHANNEL_LAYERS = channel_layers_setting()
    # the server checks the password with the project's hashers, not the tests' fast one
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    leaver, stayer = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=leaver.user, game="han", players=2,
                                        creator_seat=0)
    match_services.join_match(user=stayer.user, match_id=match.pk)
    seats = {0: leaver, 1: stayer}

    async def scenario(address):
        subscriber = Subscriber(address, token=leaver.token)
        other = Subscriber(address, token=stayer.token)
        play = await PlayClient.open(address, leaver.token)
        stream = await asyncio.to_thread(Stream, address, leaver.token)
        try:
            for socket in (subscriber, other):
                assert (await socket.open())["type"] == "connection_ack"
                await socket.subscribe(UPDATES, {"id": str(match.pk)})
                assert (await _next_or_close(socket))[0] == "next"
            await play.subscribe(match.pk)

            before = await _in_thread(_last_event_id, leaver.user.pk)
            status, _ = await asyncio.to_thread(http_json, address, "DELETE", "/api/v1/me",
                                                {"password": DEFAULT_PASSWORD}, leaver.token)
            assert status == 204
            # the leaver's seat is a bot's now; the opponent's next move is pushed
            await _in_thread(_play_one, match.pk, seats)
            graphql_end = await _next_or_close(subscriber)
            other_saw = await _next_or_close(other)
            play_frames = []
            with pytest.raises(ConnectionClosed) as play_closed:
                while True:
                    play_frames.append(await play.next(timeout=10))
            streamed = []
            with pytest.raises(EOFError):
                for _ in range(50):
                    streamed.append(await asyncio.to_thread(stream.next_event))
            # what it had sent before the erasure, then the end: nothing newer
            assert all(event["id"] <= before for event in streamed), (before, streamed)
            return graphql_end, other_saw, play_frames, play_closed.value.rcvd.code
        finally:
            await subscriber.close()
            await other.close()
            await asyncio.to_thread(stream.close)

    with running_daphne() as address:
        graphql_end, other_saw, play_frames, play_code = asyncio.run(scenario(address))
    assert graphql_end == ("closed", revocation.ACCESS_REVOKED_CLOSE_CODE)
    assert other_saw[0] == "next"
    # the only frame after the erasure says why; the opponent's move never reached it
    assert [frame["op"] for frame in play_frames] == ["error"], play_frames
    assert play_frames[0]["error"]["code"] == "access_revoked" and play_code == 4401
    assert User.objects.get(pk=leaver.user.pk).username.startswith("deleted-")
