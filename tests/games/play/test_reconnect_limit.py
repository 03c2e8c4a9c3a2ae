"""Socket reconnects are counted apart from sign-ins (issue 40; docs/play.md "Limits").

A rolling restart closes every socket of a retiring web process (1012) and each client
reconnects at once with the token it already holds. When ``hello`` counted against the
sign-in limit (``auth``, 10 a minute per address), only the first ten sockets behind one
address (an office, a carrier NAT) got back in; the others were told ``throttled`` for up
to a minute. Now ``hello`` has its own limit (``socket_auth``) and a password sign-in from
the same address is limited as before."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.error
import urllib.request

import pytest

from tests.conftest import DEFAULT_PASSWORD
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import make_player
from tests.games.play.client import PlayClient

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = 30
#: the shipped per-user cap is 10 sockets: spread them over users
SOCKETS_PER_USER = 5
#: one address for every socket and sign-in of this test (believed through one proxy),
#: so no other test's count in this minute's window is added to ours
#: (a fresh one per run: the counts of a run a minute ago may still stand in Redis)
ADDRESS = f"198.51.{random.randrange(256)}.{random.randrange(1, 255)}"
FORWARDED = {"X-Forwarded-For": ADDRESS}


@pytest.fixture(scope="module")
def proxied_tier(django_db_setup, django_db_blocker):
    """The shipped settings and limits (THROTTLE_AUTH 10/min, not the tests' unlimited
    ones), the address from X-Forwarded-For."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2, extra_env={
                "DJANGO_SETTINGS_MODULE": "config.settings", "NUM_PROXIES": "1"}) as address:
            yield address


async def _hello(address: str, token: str) -> tuple[PlayClient, dict]:
    client = await PlayClient.open(address, hello=False, headers=FORWARDED)
    await client.send({"op": "hello", "token": token})
    return client, await client.next("welcome", "error")


def _password_sign_in(address: str, username: str, password: str) -> int:
    request = urllib.request.Request(
        f"http://{address}/api/v1/auth/token/", method="POST",
        data=json.dumps({"username": username, "password": password}).encode(),
        headers={"Content-Type": "application/json", **FORWARDED})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_thirty_sockets_behind_one_address_reconnect_at_once(proxied_tier, make_user,
                                                             settings):
    # the server checks passwords with the production hashers, not the tests' fast one
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    players = [make_player(make_user) for _ in range(SOCKETS // SOCKETS_PER_USER)]
    tokens = [player.token for player in players for _ in range(SOCKETS_PER_USER)]

    async def connect_all() -> list[tuple[PlayClient, dict]]:
        return await asyncio.gather(*(_hello(proxied_tier, token) for token in tokens))

    async def scenario():
        before = await connect_all()
        assert [answer["op"] for _, answer in before] == ["welcome"] * SOCKETS, before
        # the restart: every socket closed at once, and every client back at once
        await asyncio.gather(*(client.close() for client, _ in before))
        after = await connect_all()
        refused = [answer for _, answer in after if answer["op"] != "welcome"]
        await asyncio.gather(*(client.close() for client, _ in after))
        assert refused == [], f"{len(refused)} of {SOCKETS} refused: {refused[:1]}"

    asyncio.run(scenario())
    # password sign-ins from that same address are still held to THROTTLE_AUTH (10/min)
    statuses = [_password_sign_in(proxied_tier, players[0].user.username, DEFAULT_PASSWORD)
                for _ in range(11)]
    assert statuses == [200] * 10 + [429], statuses


def test_a_refused_token_counts_as_a_failed_sign_in(proxied_tier, make_user, settings):
    """Trying tokens over the socket is no faster than trying passwords: each refused
    token spends one of the address's sign-ins."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher"]
    player = make_player(make_user)
    headers = {"X-Forwarded-For": f"203.0.{random.randrange(256)}.{random.randrange(1, 255)}"}

    async def scenario():
        for attempt in range(10):
            client = await PlayClient.open(proxied_tier, hello=False, headers=headers)
            await client.send({"op": "hello", "token": f"not-a-token-{attempt}"})
            answer = await client.next("error")
            assert answer["error"]["code"] == "not_authenticated", answer
            await client.close()

    asyncio.run(scenario())
    request = urllib.request.Request(
        f"http://{proxied_tier}/api/v1/auth/token/", method="POST",
        data=json.dumps({"username": player.user.username,
                         "password": DEFAULT_PASSWORD}).encode(),
        headers={"Content-Type": "application/json", **headers})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=20)
    assert refused.value.code == 429
