"""The chat over the play socket (docs/chat.md "Pushes"): a message is pushed, after its
commit, to the followers of the match who may read its room, and to nobody else. The
production web tier serves the sockets (two processes); messages are sent over REST from
this process, so every push crosses processes over Redis.

Pushes of one match travel on one channel, in order: a reader that gets a later marker
message without the earlier one was not sent the earlier one."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.clocks import services as clock_services
from tests.games.chat.support import chat_url, two_player_han
from tests.games.play.client import PlayClient
from tests.games.support import eager_celery

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _send(player, match_id, room, text) -> dict:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    answer = client.post(chat_url(match_id, room), {"text": text}, format="json")
    assert answer.status_code == 201, answer.content
    return answer.json()


async def _chats_until(client: PlayClient, marker: str) -> list[dict]:
    """Every ``chat`` frame ``client`` gets up to and including the one saying ``marker``."""
    seen = []
    while not seen or seen[-1]["text"] != marker:
        seen.append(await client.next("chat", timeout=15))
    return seen


def test_a_spectator_never_receives_the_players_room_of_a_running_match(
        web_tier, players):
    alice, bob, carol = players
    match_id = two_player_han(alice.user, bob.user).pk

    async def scenario():
        sockets = {name: await PlayClient.open(web_tier, who.token if who else None)
                   for name, who in (("alice", alice), ("bob", bob), ("carol", carol),
                                     ("anonymous", None))}
        for socket in sockets.values():
            await socket.subscribe(match_id)
        await asyncio.to_thread(_send, alice, match_id, "players", "secret plan")
        await asyncio.to_thread(_send, carol, match_id, "spectators", "marker")
        seen = {name: await _chats_until(socket, "marker")
                for name, socket in sockets.items()}
        for socket in sockets.values():
            await socket.close()
        return seen

    seen = asyncio.run(scenario())
    for player in ("alice", "bob"):
        assert [(f["room"], f["text"]) for f in seen[player]] == [
            ("players", "secret plan"), ("spectators", "marker")], player
    for spectator in ("carol", "anonymous"):
        assert [(f["room"], f["text"]) for f in seen[spectator]] == [
            ("spectators", "marker")], spectator
        assert "secret plan" not in str(seen[spectator])
    assert seen["alice"][0]["author"] == alice.user.username
    assert seen["alice"][0]["ply"] == 0 and seen["alice"][0]["match"] == str(match_id)


def test_a_player_whose_seat_passed_to_a_bot_stops_receiving_the_players_room(
        web_tier, players, make_user):
    alice, bob, carol = players
    admin = make_user(is_superuser=True)
    match_id = two_player_han(alice.user, bob.user).pk

    def hand_over():
        try:
            with eager_celery():
                clock_services.hand_seat_to_bot(user=admin, match_id=match_id, position=0,
                                                bot_kind="random")
        finally:
            connection.close()  # this thread ends: hand its pooled connection back

    async def scenario():
        former = await PlayClient.open(web_tier, alice.token)
        other = await PlayClient.open(web_tier, bob.token)
        for socket in (former, other):
            await socket.subscribe(match_id)
        await asyncio.to_thread(_send, bob, match_id, "players", "before")
        await asyncio.to_thread(hand_over)
        await asyncio.to_thread(_send, bob, match_id, "players", "after the hand-over")
        await asyncio.to_thread(_send, carol, match_id, "spectators", "marker")
        seen = [await _chats_until(socket, "marker") for socket in (former, other)]
        for socket in (former, other):
            await socket.close()
        return seen

    former_saw, other_saw = asyncio.run(scenario())
    assert [f["text"] for f in other_saw] == ["before", "after the hand-over", "marker"]
    assert [f["text"] for f in former_saw] == ["before", "marker"]
    # and over REST: the former player is refused the room while the match runs
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {alice.token}")
    refused = client.get(chat_url(match_id, "players"))
    assert refused.status_code == 403
    assert "after the hand-over" not in refused.content.decode()


def test_a_muted_authors_messages_reach_no_socket_of_whoever_muted_them(web_tier, players):
    from games.chat import mutes

    alice, bob, carol = players
    match_id = two_player_han(alice.user, bob.user).pk
    mutes.mute(alice.user, carol.user.username)

    async def scenario():
        muter = await PlayClient.open(web_tier, alice.token)
        other = await PlayClient.open(web_tier, bob.token)
        for socket in (muter, other):
            await socket.subscribe(match_id)
        await asyncio.to_thread(_send, carol, match_id, "spectators", "spam")
        await asyncio.to_thread(_send, bob, match_id, "spectators", "marker")
        seen = [await _chats_until(socket, "marker") for socket in (muter, other)]
        for socket in (muter, other):
            await socket.close()
        return seen

    muter_saw, other_saw = asyncio.run(scenario())
    assert [f["text"] for f in other_saw] == ["spam", "marker"]
    assert [f["text"] for f in muter_saw] == ["marker"]
