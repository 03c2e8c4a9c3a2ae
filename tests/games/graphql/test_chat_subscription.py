"""The ``chatMessages`` subscription's leak tests (docs/chat.md "GraphQL"), with the play
socket's rule: a spectator never receives the players' room of a running match, a player
whose seat passed to a bot stops receiving it, a muted author reaches nobody who muted
them. Real daphne, websockets and the Redis channel layer; messages are sent from this
process, as a REST call would."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis
from channels.layers import get_channel_layer
from django.db import connection

from games.chat import mutes, services
from games.clocks import services as clock_services
from tests.games.chat.support import two_player_han
from tests.games.graphql.asgi_server import (
    Subscriber,
    channel_layers_setting,
    channel_redis_url,
    running_daphne,
)
from tests.games.support import eager_celery

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

CHAT = """subscription Chat($id: ID!) {
  chatMessages(matchId: $id) { room author text deleted } }"""


@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()
    with running_daphne() as address:
        yield address


def _members_joined(match_id: int, count: int) -> None:
    """Wait until ``count`` subscribers joined the match's chat group: a message sent
    before a subscription is listening is not its to receive (the query has it)."""
    key = get_channel_layer()._group_key(f"chat-{match_id}")
    client = redis.Redis.from_url(channel_redis_url())
    deadline = time.monotonic() + 15
    while client.zcard(key) < count:
        assert time.monotonic() < deadline, "the subscribers never joined"
        time.sleep(0.05)


async def _subscribed(server, match_id, players) -> dict:
    subscribers = {name: Subscriber(server, token=who.token if who else None)
                   for name, who in players.items()}
    for subscriber in subscribers.values():
        assert (await subscriber.open())["type"] == "connection_ack"
        await subscriber.subscribe(CHAT, {"id": str(match_id)})
    await asyncio.to_thread(_members_joined, match_id, len(subscribers))
    return subscribers


def _say(user, match_id, room, text) -> None:
    try:
        services.send_message(match_id, room, user, text)
    finally:
        connection.close()  # a thread of its own: hand its connection back


async def _until(subscriber, marker: str) -> list[tuple[str, str]]:
    seen = []
    while not seen or seen[-1][1] != marker:
        message = await subscriber.receive()
        assert message["type"] == "next", message
        row = message["payload"]["data"]["chatMessages"]
        seen.append((row["room"], row["text"]))
    return seen


def test_a_spectator_never_receives_the_players_room_of_a_running_match(
        server, players, outsider):
    alice, bob = players[:2]
    match_id = two_player_han(alice.user, bob.user).pk

    async def scenario():
        subscribers = await _subscribed(server, match_id, {
            "alice": alice, "bob": bob, "carol": outsider, "anonymous": None})
        try:
            await asyncio.to_thread(_say, alice.user, match_id, "players", "secret plan")
            await asyncio.to_thread(_say, outsider.user, match_id, "spectators", "marker")
            return {name: await _until(subscriber, "marker")
                    for name, subscriber in subscribers.items()}
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    seen = asyncio.run(scenario())
    for player in ("alice", "bob"):
        assert seen[player] == [("players", "secret plan"), ("spectators", "marker")]
    for spectator in ("carol", "anonymous"):
        assert seen[spectator] == [("spectators", "marker")], spectator


def test_a_player_whose_seat_passed_to_a_bot_stops_receiving_the_players_room(
        server, players, outsider, make_user):
    alice, bob = players[:2]
    admin = make_user(is_superuser=True)
    match_id = two_player_han(alice.user, bob.user).pk

    def hand_over():
        try:
            with eager_celery():
                clock_services.hand_seat_to_bot(user=admin, match_id=match_id, position=0,
                                                bot_kind="random")
        finally:
            connection.close()

    async def scenario():
        subscribers = await _subscribed(server, match_id, {"former": alice, "other": bob})
        try:
            await asyncio.to_thread(_say, bob.user, match_id, "players", "before")
            await asyncio.to_thread(hand_over)
            await asyncio.to_thread(_say, bob.user, match_id, "players", "after")
            await asyncio.to_thread(_say, outsider.user, match_id, "spectators", "marker")
            return [await _until(subscribers[name], "marker") for name in ("former", "other")]
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    former, other = asyncio.run(scenario())
    assert [text for _room, text in other] == ["before", "after", "marker"]
    assert [text for _room, text in former] == ["before", "marker"]


def test_a_muted_authors_messages_reach_no_subscriber_who_muted_them(
        server, players, outsider):
    alice, bob = players[:2]
    match_id = two_player_han(alice.user, bob.user).pk
    mutes.mute(alice.user, outsider.user.username)

    async def scenario():
        subscribers = await _subscribed(server, match_id, {"muter": alice, "other": bob})
        try:
            await asyncio.to_thread(_say, outsider.user, match_id, "spectators", "spam")
            await asyncio.to_thread(_say, bob.user, match_id, "spectators", "marker")
            return [await _until(subscribers[name], "marker") for name in ("muter", "other")]
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    muter, other = asyncio.run(scenario())
    assert [text for _room, text in other] == ["spam", "marker"]
    assert [text for _room, text in muter] == ["marker"]


@pytest.mark.parametrize(("room", "code"), [("kitchen", "chat_room_not_found"),
                                            (None, "match_not_found")])
def test_a_subscription_to_no_room_is_refused_with_rests_code(server, players, room, code):
    alice, bob = players[:2]
    match_id = two_player_han(alice.user, bob.user).pk if room else 999999999

    async def scenario():
        subscriber = Subscriber(server, token=alice.token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(
                """subscription Chat($id: ID!, $room: String) {
                     chatMessages(matchId: $id, room: $room) { text } }""",
                {"id": str(match_id), "room": room})
            return await subscriber.receive()
        finally:
            await subscriber.close()

    answer = asyncio.run(scenario())
    errors = answer["payload"] if answer["type"] == "error" else answer["payload"]["errors"]
    assert [error["extensions"]["code"] for error in errors] == [code], answer
