"""Sending chat over the play socket (docs/chat.md "Over the play socket"): a ``chat`` op
is answered as a move is, ``ack`` after the commit (before the socket's own push of the
message) or ``refused`` with REST's code and status, storing nothing. The production web
tier serves the sockets (two processes), so the other readers' pushes cross processes."""

from __future__ import annotations

import asyncio

import pytest

from games.chat.models import ChatMessage
from tests.games.chat.support import two_player_han
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _chat(match_id, room: str, text, ref="c1") -> dict:
    return {"op": "chat", "ref": ref, "match": str(match_id), "room": room, "text": text}


def test_a_message_sent_over_the_socket_is_acked_after_its_commit_then_pushed(
        web_tier, players):
    alice, bob, _carol = players
    match_id = two_player_han(alice.user, bob.user).pk

    async def scenario():
        sender = await PlayClient.open(web_tier, alice.token)
        other = await PlayClient.open(web_tier, bob.token)
        for socket in (sender, other):
            await socket.subscribe(match_id)
        await sender.send(_chat(match_id, "players", "  good luck  ", ref="r1"))
        answer = await sender.next("ack", "refused", "error")
        # once acked, the message is in the database (committed before the ack)
        stored = await asyncio.to_thread(
            lambda: list(ChatMessage.objects.filter(room__match_id=match_id)
                         .values_list("text", flat=True)))
        own_push = await sender.next("chat")
        order = [frame["op"] for frame in sender.frames if frame["op"] in ("ack", "chat")]
        pushed = await other.next("chat", timeout=15)
        for socket in (sender, other):
            await socket.close()
        return answer, stored, own_push, order, pushed

    answer, stored, own_push, order, pushed = asyncio.run(scenario())
    assert answer["op"] == "ack" and answer["ref"] == "r1", answer
    assert answer["match"] == str(match_id) and answer["ply"] == 0
    assert answer["message"]["text"] == "good luck"
    assert answer["message"]["author"] == alice.user.username
    assert stored == ["good luck"]
    assert order == ["ack", "chat"]  # the ack before the echo, as a move's before its update
    assert own_push["id"] == pushed["id"] == answer["message"]["id"]


@pytest.mark.parametrize(("who", "room", "text", "status", "code"), [
    ("carol", "players", "psst", 403, "chat_room_not_writable"),
    ("alice", "players", "   ", 400, "chat_text_empty"),
    ("alice", "players", "x" * 501, 400, "chat_text_too_long"),
    ("alice", "kitchen", "hi", 404, "chat_room_not_found"),
    ("alice", "players", 42, 400, "invalid_request"),
])
def test_a_refused_message_is_answered_with_rests_code_and_stores_nothing(
        web_tier, players, who, room, text, status, code):
    alice, bob, carol = players
    match_id = two_player_han(alice.user, bob.user).pk
    sender = {"alice": alice, "carol": carol}[who]

    async def scenario():
        socket = await PlayClient.open(web_tier, sender.token)
        answer = await socket.request(_chat(match_id, room, text), "ack", "refused", "error")
        await socket.close()
        return answer

    answer = asyncio.run(scenario())
    assert answer["op"] == "refused", answer
    assert answer["status"] == status and answer["error"]["code"] == code
    assert answer["ref"] == "c1" and answer["match"] == str(match_id)
    assert not ChatMessage.objects.filter(room__match_id=match_id).exists()


def test_an_anonymous_socket_may_not_chat(web_tier, players):
    alice, bob, _carol = players
    match_id = two_player_han(alice.user, bob.user).pk

    async def scenario():
        socket = await PlayClient.open(web_tier, None)
        answer = await socket.request(_chat(match_id, "spectators", "hi"), "ack", "refused",
                                      "error")
        await socket.close()
        return answer

    answer = asyncio.run(scenario())
    assert answer["op"] == "error" and answer["error"]["code"] == "authentication_required"
    assert not ChatMessage.objects.filter(room__match_id=match_id).exists()


def test_a_flood_over_the_socket_is_refused_with_the_chats_rate_limit(web_tier, players,
                                                                      settings):
    alice, bob, _carol = players
    match_id = two_player_han(alice.user, bob.user).pk
    burst = 5  # CHAT_BURST in the web tier's settings (docs/chat.md "Limits")

    async def scenario():
        socket = await PlayClient.open(web_tier, alice.token)
        answers = []
        # fixed 10 s windows: a run this short crosses at most one window's edge, so
        # 2 * burst + 1 messages overfill one of the two windows whatever the timing
        for number in range(2 * burst + 1):
            answers.append(await socket.request(_chat(match_id, "players", f"m{number}",
                                                      ref=number), "ack", "refused", "error"))
        await socket.close()
        return answers

    answers = asyncio.run(scenario())
    assert [answer["op"] for answer in answers].count("ack") >= burst
    refused = [answer for answer in answers if answer["op"] == "refused"]
    assert refused and refused[-1]["status"] == 429
    assert refused[-1]["error"]["code"] == "chat_rate_limited"
    assert refused[-1]["error"]["details"]["retry_after_seconds"] >= 1
    assert ChatMessage.objects.filter(room__match_id=match_id).count() == \
        len(answers) - len(refused)
