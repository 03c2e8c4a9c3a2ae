"""Against a running server (daphne, the real Redis and database), with no restart:
an app's origin registered while the server runs is accepted by CORS and by the play
socket's origin check; a personal token or an app's token opens the play socket and
GraphQL; revoking one token closes only the sockets it opened (the user's others stay),
disconnecting an app or suspending it closes its sockets (issue 38)."""

from __future__ import annotations

import asyncio
import http.client
import time
import urllib.request

import pytest
from oauth2_provider.models import AccessToken
from websockets.exceptions import ConnectionClosed, InvalidStatus

from accounts.apps_oauth import services
from games.lobby import services as lobby
from games.matches import services as match_services
from tests.accounts.apps_oauth.support import make_app
from tests.games.feed.test_feed import Stream
from tests.games.graphql.asgi_server import channel_layers_setting, running_daphne
from tests.games.graphql.support import make_player
from tests.games.play.client import PlayClient

pytestmark = pytest.mark.django_db(transaction=True)

LATE = "https://late-frontend.example"


@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()  # this process announces too
    with running_daphne() as address:
        yield address


def _preflight(address: str, origin: str) -> str | None:
    request = urllib.request.Request(
        f"http://{address}/api/v1/me", method="OPTIONS",
        headers={"Origin": origin, "Access-Control-Request-Method": "GET",
                 "Access-Control-Request-Headers": "authorization"})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.headers.get("Access-Control-Allow-Origin")


async def _socket_opens(address: str, origin: str) -> bool:
    try:
        client = await PlayClient.open(address, None, origin=origin)
    except InvalidStatus as refused:
        assert refused.response.status_code == 403
        return False
    await client.close()
    return True


def _until(predicate, seconds: float = 5.0):
    deadline = time.monotonic() + seconds
    while True:
        value = predicate()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


def test_an_origin_registered_while_running_is_served_at_once(server, make_user):
    assert _preflight(server, LATE) is None
    assert asyncio.run(_socket_opens(server, LATE)) is False
    app = make_app(make_user(), origins=LATE)
    started = time.monotonic()
    assert _until(lambda: _preflight(server, LATE) == LATE)
    assert asyncio.run(_socket_opens(server, LATE)) is True
    assert time.monotonic() - started < 3  # within the recheck (1 s), no restart
    app.active = False  # a suspended app's origins go as well
    app.save()
    assert _until(lambda: _preflight(server, LATE) is None)
    assert asyncio.run(_socket_opens(server, LATE)) is False


def _open(server, token):
    return PlayClient.open(server, token)


async def _closed_code(client, timeout=10) -> int | None:
    try:
        while True:
            await client.next(timeout=timeout)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


async def _still_open(client) -> bool:
    """Nothing comes for 1.5 s: neither a close nor the ``access_revoked`` error before it."""
    try:
        frame = await client.next(timeout=1.5)
    except TimeoutError:
        return True
    except ConnectionClosed:
        return False
    return frame.get("op") != "error"


def test_revoking_a_personal_token_closes_only_its_sockets(server, make_user):
    player = make_player(make_user)
    personal, key = services.create_personal_token(player.user, name="bot",
                                                   scopes=["match:play"],
                                                   expires_in_days=None)

    async def scenario():
        by_personal = await _open(server, key)
        by_first_party = await _open(server, player.token)
        await asyncio.to_thread(services.revoke_personal_token, player.user, personal.pk)
        assert await _closed_code(by_personal) == 4401
        assert await _still_open(by_first_party)
        await by_first_party.close()
        refused = await PlayClient.open(server, hello=False)
        await refused.send({"op": "hello", "token": key})
        assert (await refused.next("error"))["error"]["code"] == "not_authenticated"

    asyncio.run(scenario())


def test_disconnecting_or_suspending_an_app_closes_its_sockets(server, make_user):
    from django.utils import timezone
    from oauth2_provider.models import set_token_value

    player = make_player(make_user)
    app = make_app(make_user())
    keys = []
    for _ in range(2):
        token = AccessToken(user=player.user, application=app, scope="match:play",
                            expires=timezone.now() + timezone.timedelta(hours=1))
        key = f"hqa_live{len(keys)}{int(time.time() * 1000)}"
        set_token_value(token, key)
        token.save()
        keys.append(key)

    async def scenario():
        first = await _open(server, keys[0])
        await asyncio.to_thread(services.disconnect_app, player.user, app.pk)
        assert await _closed_code(first) == 4401

    asyncio.run(scenario())
    other = make_app(make_user(), name="Other")
    token = AccessToken(user=player.user, application=other, scope="match:play",
                        expires=timezone.now() + timezone.timedelta(hours=1))
    set_token_value(token, "hqa_suspended" + keys[0][-8:])
    token.save()

    async def suspended():
        client = await _open(server, "hqa_suspended" + keys[0][-8:])
        other.active = False
        await asyncio.to_thread(other.save)
        assert await _closed_code(client) == 4401

    asyncio.run(suspended())


class _BearerStream(Stream):
    """GET /api/v1/stream/ with ``Authorization: Bearer``."""

    def __init__(self, address, key):
        host, port = address.split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=15)
        self.conn.request("GET", "/api/v1/stream/", headers={"Authorization": f"Bearer {key}"})
        self.response = self.conn.getresponse()


def test_a_personal_tokens_stream_ends_when_it_is_revoked_and_only_that_one(server,
                                                                           make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    personal, key = services.create_personal_token(alice.user, name="feed",
                                                   scopes=["account:read"])
    match = match_services.create_match(user=bob.user, game="hansa", players=3)
    by_personal, by_first_party = _BearerStream(server, key), Stream(server, alice.token)
    assert by_personal.response.status == 200 and by_first_party.response.status == 200
    services.revoke_personal_token(alice.user, personal.pk)
    lobby.invite(user=bob.user, match_id=match.pk, usernames=[alice.user.username])
    with pytest.raises(EOFError):
        event = by_personal.next_event()
        pytest.fail(f"the revoked stream delivered {event}")
    assert by_first_party.next_event()["kind"] == "invitation_received"
    by_personal.close()
    by_first_party.close()
