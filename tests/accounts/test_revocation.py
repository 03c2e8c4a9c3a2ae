"""Revoked access reaches open connections (issue 21, item 2).

``matchUpdates``, ``myEvents`` and the NDJSON stream authenticated once, when they opened,
and kept delivering after ``DELETE /api/v1/auth/token/`` - a seat's private hand
included. Now revoking the token, deactivating the user or changing their password ends
that user's open sockets (close 4403) and streams before their next message
(accounts/revocation.py), whichever path made the change (the API, the admin, a shell:
accounts/revocation_triggers.py); and a connection whose announcement was lost finds out
by re-checking its token before it sends anything private.

Over a real server (daphne), the real Redis channel layer and the real database."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token
from websockets.exceptions import ConnectionClosed

from accounts import revocation
from accounts.models import User
from games.lobby import services as lobby
from games.matches import selectors
from games.matches import services as match_services
from tests.games.feed.test_feed import MY_EVENTS, Stream
from tests.games.graphql.asgi_server import (
    Subscriber,
    channel_layers_setting,
    http_json,
    running_daphne,
)
from tests.games.graphql.support import make_player

pytestmark = pytest.mark.django_db(transaction=True)

UPDATES = """subscription($id: ID!) { matchUpdates(matchId: $id) { ply view } }"""


@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()  # this process announces too
    with running_daphne() as address:
        yield address


def _two_player_han(make_user):
    ann, bob = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=ann.user, game="han", players=2, creator_seat=0)
    match_services.join_match(user=bob.user, match_id=match.pk)
    return match.pk, {0: ann, 1: bob}


def _play_one(match_id: int, seats) -> None:
    try:
        match = selectors.get_match(match_id)
        seat = selectors.to_act_of(match)[0]
        move = selectors.legal_moves_for(match, seats[seat].user)["moves"][0]
        match_services.submit_move(match_id=match_id, user=seats[seat].user, move=move)
    finally:
        connection.close()


async def _next_or_close(subscriber: Subscriber, timeout: float = 10) -> tuple[str, object]:
    """("next", data) for a pushed result, ("closed", code) when the server closed."""
    try:
        message = await subscriber.receive(timeout=timeout)
    except ConnectionClosed as closed:
        return "closed", closed.rcvd.code if closed.rcvd else None
    return message["type"], message.get("payload")


def _in_thread(function, *args):
    def run():
        try:
            return function(*args)
        finally:
            connection.close()
    return asyncio.to_thread(run)


def _delete_token_over_rest(address: str, key: str) -> None:
    status, _ = http_json(address, "DELETE", "/api/v1/auth/token/", token=key)
    assert status == 204


def _deactivate(user_id: int) -> None:
    user = User.objects.get(pk=user_id)
    user.is_active = False
    user.save()


def _change_password(user_id: int) -> None:
    user = User.objects.get(pk=user_id)
    user.set_password("a-brand-new-passphrase-21")
    user.save()


async def _watching_seat_zero(server, match_id, seats, revoke) -> list[tuple[str, object]]:
    """Seat 0 subscribes; ``revoke(seat 0)`` runs; then the other seat moves (a push with
    seat 0's hand would follow). What seat 0's socket received after the revocation."""
    subscriber = Subscriber(server, token=seats[0].token)
    try:
        assert (await subscriber.open())["type"] == "connection_ack"
        await subscriber.subscribe(UPDATES, {"id": str(match_id)})
        kind, first = await _next_or_close(subscriber)
        assert kind == "next" and "hand" in first["data"]["matchUpdates"]["view"]
        await revoke(seats[0])
        await _in_thread(_play_one, match_id, seats)
        received = []
        while True:
            kind, payload = await _next_or_close(subscriber, timeout=5)
            received.append((kind, payload))
            if kind == "closed":
                return received
    except TimeoutError:
        return received + [("silence", None)]
    finally:
        await subscriber.close()


@pytest.mark.parametrize("how", ["delete_token", "deactivate", "change_password"])
def test_revoked_access_ends_match_updates_before_the_next_push(server, make_user, how):
    match_id, seats = _two_player_han(make_user)
    # the first move makes it seat 0's opponent's turn or keeps seat 0 to act: either way
    # the next move below is announced to seat 0's socket
    revokers = {
        "delete_token": lambda seat: asyncio.to_thread(_delete_token_over_rest, server,
                                                       seat.token),
        "deactivate": lambda seat: _in_thread(_deactivate, seat.user.pk),
        "change_password": lambda seat: _in_thread(_change_password, seat.user.pk),
    }
    received = asyncio.run(_watching_seat_zero(server, match_id, seats, revokers[how]))
    assert received == [("closed", revocation.ACCESS_REVOKED_CLOSE_CODE)], received
    if how == "change_password":  # a password change revokes the token
        assert not Token.objects.filter(key=seats[0].token).exists()
        assert http_json(server, "GET", "/api/v1/me", token=seats[0].token)[0] == 401


def test_revoked_access_ends_my_events(server, make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=bob.user, game="hansa", players=3)

    async def scenario():
        subscriber = Subscriber(server, token=alice.token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(MY_EVENTS, {})
            await asyncio.to_thread(_delete_token_over_rest, server, alice.token)
            # an event for alice: the invitation must not reach the revoked socket
            await _in_thread(lambda: lobby.invite(user=bob.user, match_id=match.pk,
                                                  usernames=[alice.user.username]))
            return await _next_or_close(subscriber)
        finally:
            await subscriber.close()

    assert asyncio.run(scenario()) == ("closed", revocation.ACCESS_REVOKED_CLOSE_CODE)


def test_revoked_access_ends_the_stream(server, make_user):
    alice, bob = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=bob.user, game="hansa", players=3)
    stream = Stream(server, alice.token)
    assert stream.response.status == 200
    _delete_token_over_rest(server, alice.token)
    lobby.invite(user=bob.user, match_id=match.pk, usernames=[alice.user.username])
    with pytest.raises(EOFError):
        event = stream.next_event()
        pytest.fail(f"the revoked stream delivered {event}")
    stream.close()


def test_a_lost_announcement_is_caught_by_the_recheck(settings, make_user):
    """Redis down when the token was revoked: no message reaches the socket. Deleting the
    row by hand sends no announcement either; the socket's re-check finds it gone."""
    settings.CHANNEL_LAYERS = channel_layers_setting()
    match_id, seats = _two_player_han(make_user)

    async def delete_silently(seat):
        def delete():
            with connection.cursor() as cursor:
                cursor.execute("DELETE FROM authtoken_token WHERE key = %s", [seat.token])
        await _in_thread(delete)
        await asyncio.sleep(1.2)  # past the re-check interval

    with running_daphne({"ACCESS_RECHECK_SECONDS": "1"}) as address:
        received = asyncio.run(_watching_seat_zero(address, match_id, seats,
                                                   delete_silently))
    assert received == [("closed", revocation.ACCESS_REVOKED_CLOSE_CODE)], received


def test_a_socket_of_another_user_is_not_ended(server, make_user):
    match_id, seats = _two_player_han(make_user)

    async def scenario():
        subscriber = Subscriber(server, token=seats[1].token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(UPDATES, {"id": str(match_id)})
            assert (await _next_or_close(subscriber))[0] == "next"
            await asyncio.to_thread(_delete_token_over_rest, server, seats[0].token)
            await _in_thread(_play_one, match_id, seats)
            return await _next_or_close(subscriber)
        finally:
            await subscriber.close()

    kind, payload = asyncio.run(scenario())
    assert kind == "next" and "hand" in payload["data"]["matchUpdates"]["view"]


# ------------------------------------------------ which changes announce (no server needed)
@pytest.fixture
def announced(monkeypatch):
    """The user ids announced, after the commit."""
    users: list[int] = []
    monkeypatch.setattr(revocation, "_announce", users.append)
    return users


def _admin_client(make_user):
    from django.test import Client

    admin = make_user(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


def test_the_admin_deleting_a_token_announces_it(make_user, announced):
    user = make_user()
    Token.objects.create(user=user)
    response = _admin_client(make_user).post(
        f"/admin/authtoken/tokenproxy/{user.pk}/delete/", {"post": "yes"})
    assert response.status_code == 302
    assert not Token.objects.filter(user=user).exists()
    assert announced == [user.pk]


def test_deactivating_a_user_announces_it(make_user, announced):
    """The admin shows ``is_active`` read-only (the runtime role may not change it):
    deactivating is the database owner's, in a shell (docs/admin.md); the save announces."""
    user = make_user()
    user.is_active = False
    user.save()
    assert announced == [user.pk]
    user.save()  # already inactive: nothing new
    assert announced == [user.pk]


def test_the_admin_changing_a_password_revokes_the_token(make_user, announced):
    user = make_user()
    Token.objects.create(user=user)
    response = _admin_client(make_user).post(
        f"/admin/accounts/user/{user.pk}/password/",
        {"password1": "another-long-passphrase-7", "password2": "another-long-passphrase-7",
         "usable_password": "true"})
    assert response.status_code == 302, response.content[:2000]
    assert not Token.objects.filter(user=user).exists()
    assert announced == [user.pk]


def test_a_hash_upgrade_at_login_keeps_the_token(make_user, announced, settings, api_client):
    user = make_user()  # hashed with MD5 (tests/conftest.py)
    token = Token.objects.create(user=user)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]
    response = api_client.post("/api/v1/auth/token/",
                               {"username": user.username,
                                "password": "correct-horse-battery-staple"}, format="json")
    assert response.status_code == 200
    assert User.objects.get(pk=user.pk).password.startswith("pbkdf2")  # re-hashed
    assert response.json()["token"] == token.key
    assert announced == []


def test_saving_a_user_unchanged_announces_nothing(make_user, announced):
    user = make_user()
    token = Token.objects.create(user=user)
    user.email = "new@example.org"
    user.save()
    user.save(update_fields=["last_login"])
    assert Token.objects.filter(key=token.key).exists()
    assert announced == []


def test_revoke_over_rest_announces_after_the_commit(auth_client, user, announced):
    assert auth_client.delete("/api/v1/auth/token/").status_code == 204
    assert announced == [user.pk]


def test_the_announcement_is_a_message_to_the_user_s_access_group(settings, user):
    """What a consumer of the other sockets receives: the documented message."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    settings.CHANNEL_LAYERS = channel_layers_setting()
    layer = get_channel_layer()

    async def listen_and_receive():
        channel = await layer.new_channel()
        await layer.group_add(revocation.access_group(user.pk), channel)
        try:
            await asyncio.to_thread(revocation._announce, user.pk)
            return await asyncio.wait_for(layer.receive(channel), 5)
        finally:
            await layer.group_discard(revocation.access_group(user.pk), channel)

    message = async_to_sync(listen_and_receive)()
    assert message == {"type": "access.revoked", "user_id": user.pk}
    assert json.dumps(message)  # nothing but plain data
