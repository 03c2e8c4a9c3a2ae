"""The match option ``players_read_spectator_chat`` on the pushing transports
(docs/chat.md "Room rules per match"): on for a private match, its players are pushed the
spectators' room; off for a listed match, they are not. The play socket (the production
web tier, two processes) and GraphQL's ``chatMessages`` subscription (daphne, the Redis
channel layer) both read it from the push's audience (games.chat.rooms.receives).

Pushes of one match travel in order: a reader pushed a later marker without the earlier
message was not pushed the earlier one."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from games.chat import services
from games.lobby import services as lobby
from games.matches import services as match_services
from tests.games.chat.test_chat_socket import _chats_until
from tests.games.graphql.asgi_server import channel_layers_setting, running_daphne
from tests.games.graphql.test_chat_subscription import _subscribed, _until
from tests.games.play.client import PlayClient
from tests.games.support import eager_celery

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _private_match_with_the_option_on(alice, bob) -> int:
    match, _code = lobby.create_private_match(user=alice, game="han", players=2,
                                              players_read_spectator_chat=True)
    with eager_celery():
        match_services.join_match(user=bob, match_id=match.pk)
    return match.pk


def _listed_match_with_the_option_off(alice, bob) -> int:
    match = match_services.create_match(user=alice, game="han", players=2, creator_seat=0,
                                        players_read_spectator_chat=False)
    with eager_celery():
        match_services.join_match(user=bob, match_id=match.pk)
    return match.pk


def _say(user, match_id, room, text) -> None:
    try:
        services.send_message(match_id, room, user, text)
    finally:
        connection.close()  # a thread of its own: hand its connection back


def _rooms_and_texts(frames) -> list[tuple[str, str]]:
    return [(frame["room"], frame["text"]) for frame in frames]


def test_the_socket_pushes_the_spectators_room_to_players_when_the_option_is_on(
        web_tier, players):
    alice, bob, carol = players
    match_id = _private_match_with_the_option_on(alice.user, bob.user)

    async def scenario():
        sockets = {who: await PlayClient.open(web_tier, player.token)
                   for who, player in (("alice", alice), ("bob", bob), ("carol", carol))}
        for socket in sockets.values():
            await socket.subscribe(match_id)
        await asyncio.to_thread(_say, carol.user, match_id, "spectators", "well played")
        seen = {who: await _chats_until(socket, "well played")
                for who, socket in sockets.items()}
        for socket in sockets.values():
            await socket.close()
        return seen

    seen = asyncio.run(scenario())
    for who in ("alice", "bob", "carol"):
        assert _rooms_and_texts(seen[who]) == [("spectators", "well played")], who


def test_the_socket_keeps_the_spectators_room_from_players_when_the_option_is_off(
        web_tier, players):
    alice, bob, carol = players
    match_id = _listed_match_with_the_option_off(alice.user, bob.user)

    async def scenario():
        sockets = {who: await PlayClient.open(web_tier, player.token)
                   for who, player in (("alice", alice), ("bob", bob), ("carol", carol))}
        for socket in sockets.values():
            await socket.subscribe(match_id)
        await asyncio.to_thread(_say, carol.user, match_id, "spectators", "bob go north")
        await asyncio.to_thread(_say, alice.user, match_id, "players", "marker")
        seen = {"carol": await _chats_until(sockets["carol"], "bob go north")}
        for who in ("alice", "bob"):
            seen[who] = await _chats_until(sockets[who], "marker")
        for socket in sockets.values():
            await socket.close()
        return seen

    seen = asyncio.run(scenario())
    assert _rooms_and_texts(seen["carol"]) == [("spectators", "bob go north")]
    for who in ("alice", "bob"):
        assert _rooms_and_texts(seen[who]) == [("players", "marker")], who


@pytest.fixture
def daphne(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()
    with running_daphne() as address:
        yield address


def test_the_subscription_follows_the_option_on_and_off(daphne, players):
    alice, bob, carol = players
    on = _private_match_with_the_option_on(alice.user, bob.user)
    off = _listed_match_with_the_option_off(alice.user, bob.user)

    async def scenario(match_id, marker_room, marker_author):
        subscribers = await _subscribed(daphne, match_id, {"alice": alice, "bob": bob})
        try:
            await asyncio.to_thread(_say, carol.user, match_id, "spectators", "coaching")
            await asyncio.to_thread(_say, marker_author, match_id, marker_room, "marker")
            return {who: await _until(subscriber, "marker")
                    for who, subscriber in subscribers.items()}
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    seen_on = asyncio.run(scenario(on, "spectators", carol.user))
    seen_off = asyncio.run(scenario(off, "players", alice.user))
    for who in ("alice", "bob"):
        assert seen_on[who] == [("spectators", "coaching"), ("spectators", "marker")], who
        assert seen_off[who] == [("players", "marker")], who
