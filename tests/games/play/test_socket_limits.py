"""The play socket's limits (docs/play.md "Limits"): every frame counts against the socket's
message rate (pings, unknown ops and malformed frames too), a socket that floods on after
``throttled`` is closed with 4429; frames are measured in UTF-8 bytes; a user and an
address hold at most so many sockets across the web processes (close 4430)."""

from __future__ import annotations

import asyncio
import json
import secrets

import pytest
from websockets.exceptions import ConnectionClosed

from games.play.protocol import ProtocolError, read_frame
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.play.client import PlayClient

RATE, BURST = 2, 10
PENALTY = 3
PER_USER, PER_ADDRESS = 2, 3


def test_a_frame_is_measured_in_utf8_bytes_not_characters():
    limit = 1000
    # 4-byte characters: fewer characters than the limit, more bytes
    text = json.dumps({"op": "hello", "token": "\U0001d11e" * (limit // 4)},
                      ensure_ascii=False)
    assert len(text) < limit < len(text.encode())
    with pytest.raises(ProtocolError) as refused:
        read_frame(text, max_bytes=limit)
    assert refused.value.code == "payload_too_large"
    assert refused.value.details == {"max_bytes": limit}
    just_under = json.dumps({"op": "ping", "ref": "\u00e9" * 30}, ensure_ascii=False)
    assert read_frame(just_under, max_bytes=len(just_under.encode())).op == "ping"
    with pytest.raises(ProtocolError):
        read_frame(just_under, max_bytes=len(just_under.encode()) - 1)


async def _closed_with(client: PlayClient) -> int | None:
    try:
        while True:
            await client.next(timeout=10)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd else None


@pytest.fixture(scope="module")
def limited_tier(django_db_setup, django_db_blocker):
    """Two web processes with small limits; X-Forwarded-For is believed (one proxy), so
    each test gives its sockets an address of its own."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2, extra_env={
                "PLAY_MESSAGES_PER_SECOND": str(RATE), "PLAY_MESSAGE_BURST": str(BURST),
                "PLAY_MAX_SOCKETS_PER_USER": str(PER_USER),
                "PLAY_MAX_SOCKETS_PER_ADDRESS": str(PER_ADDRESS),
                "PLAY_FLOOD_PENALTY_SECONDS": str(PENALTY),
                "NUM_PROXIES": "1"}) as address:
            yield address


def _address() -> dict:
    return {"X-Forwarded-For": f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}."
                               f"{secrets.randbelow(250) + 1}"}


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_every_frame_counts_and_a_socket_flooding_on_is_closed_4429(limited_tier):
    async def scenario():
        client = await PlayClient.open(limited_tier, None, headers=_address())  # hello: 1
        # pings, unknown ops and malformed frames all take from the same bucket
        frames = ['{"op": "ping", "ref": 1}', '{"op": "launch"}', "{not json",
                  '{"op": "unsubscribe", "match": "1"}'] * 3
        for text in frames[:BURST - 1]:
            await client.send(text)
        await client.send('{"op": "ping", "ref": "over"}')  # the 11th frame: over
        await client.send('{"op": "ping", "ref": "over again"}')
        refused = await client.next("error", "pong")
        while refused["op"] != "error" or refused["error"]["code"] != "throttled":
            refused = await client.next("error", "pong")
        assert refused["error"]["details"]["retry_after_seconds"] >= 1
        # each refused request is answered, naming its ref, and is not handled (no pong)
        assert refused["ref"] == "over"
        again = await client.next("error")
        assert (again["ref"], again["error"]["code"]) == ("over again", "throttled")
        assert not [frame for frame in client.frames + client._unread
                    if str(frame.get("ref")).startswith("over") and frame["op"] == "pong"]
        # told, and listening: after the wait it is answered again
        await asyncio.sleep(refused["error"]["details"]["retry_after_seconds"])
        assert (await client.request({"op": "ping", "ref": 2}, "pong"))["ref"] == 2

        # told, and flooding on: closed
        address = _address()
        flooder = await PlayClient.open(limited_tier, None, headers=address)
        for _ in range(BURST + 40):
            try:
                await flooder.send('{"op": "ping"}')
            except ConnectionClosed:
                break
        assert await _closed_with(flooder) == 4429
        # told at most once per frame of the run before the close (which drops what was
        # still queued), never anything else
        told = [frame["error"]["code"] for frame in flooder.frames if frame["op"] == "error"]
        assert set(told) <= {"throttled"} and len(told) <= 20

        # and its address is held at the door of that web process for PLAY_FLOOD_PENALTY
        # seconds: told throttled at once, not read (a ping goes unanswered), closed 4429
        for _attempt in range(20):  # until a socket lands on the process that closed it
            again = await PlayClient.open(limited_tier, hello=False, headers=address)
            try:
                held = await again.next("error", timeout=0.5)
                break
            except TimeoutError:
                await again.close()
        else:
            raise AssertionError("no socket landed on the process that closed the flooder")
        assert held["error"]["code"] == "throttled"
        assert 1 <= held["error"]["details"]["retry_after_seconds"] <= PENALTY
        await again.send({"op": "ping", "ref": "held"})
        assert await _closed_with(again) == 4429
        assert not [frame for frame in again.frames if frame["op"] == "pong"]
        await client.close()

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_user_holds_at_most_the_cap_of_sockets_across_processes(limited_tier, players):
    token = players[0].token

    async def scenario():
        # each from an address of its own: the user's cap, not the address's
        held = [await PlayClient.open(limited_tier, token, headers=_address())
                for _ in range(PER_USER)]
        extra = await PlayClient.open(limited_tier, hello=False, headers=_address())
        await extra.send({"op": "hello", "token": token, "ref": "h"})
        refused = await extra.next("error")
        assert refused["error"]["code"] == "too_many_sockets", refused
        assert refused["error"]["details"] == {"max": PER_USER} and refused["ref"] == "h"
        assert await _closed_with(extra) == 4430
        # another user is not counted with them
        other = await PlayClient.open(limited_tier, players[1].token, headers=_address())
        await held.pop().close()
        assert (await _open_once_a_place_is_free(limited_tier, token))
        for client in [*held, other]:
            await client.close()

    asyncio.run(scenario())


async def _open_once_a_place_is_free(address: str, token: str | None,
                                     headers: dict | None = None) -> PlayClient:
    """A socket opened as soon as a closed one gave its place back (the server gives it
    back after the close handshake, a moment after the client has seen it)."""
    for _ in range(50):
        client = await PlayClient.open(address, hello=False, headers=headers or _address())
        await client.send({"op": "hello", "token": token})
        answer = await client.next("welcome", "error")
        if answer["op"] == "welcome":
            return client
        assert answer["error"]["code"] == "too_many_sockets", answer
        await asyncio.sleep(0.1)
    raise AssertionError("no place was given back")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_an_address_holds_at_most_the_cap_of_sockets_refused_at_the_handshake(limited_tier):
    address = _address()

    async def scenario():
        held = [await PlayClient.open(limited_tier, None, headers=address)
                for _ in range(PER_ADDRESS)]
        extra = await PlayClient.open(limited_tier, hello=False, headers=address)
        refused = await extra.next("error")  # before any hello
        assert refused["error"]["code"] == "too_many_sockets", refused
        assert refused["error"]["details"] == {"max": PER_ADDRESS}
        assert await _closed_with(extra) == 4430
        await held.pop().close()
        held.append(await _open_once_a_place_is_free(limited_tier, None, address))
        for client in held:
            await client.close()

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_hello_of_four_byte_characters_over_the_limit_is_too_large(limited_tier):
    async def scenario():
        client = await PlayClient.open(limited_tier, hello=False, headers=_address())
        limit = 1024 * 1024  # MAX_REQUEST_BYTES's default
        await client.send(json.dumps({"op": "hello", "token": "\U0001d11e" * (limit // 4)},
                                     ensure_ascii=False))
        refused = await client.next("error")
        assert refused["error"]["code"] == "payload_too_large", refused["error"]["code"]
        assert await _closed_with(client) == 4401

    asyncio.run(scenario())


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_chat_op_over_the_message_rate_is_answered_throttled_and_not_sent(
        limited_tier, make_user):
    """Every chat op gets one answer: over the socket's message rate, ``throttled`` with
    its ref (before: the first of a run was answered without one, the others never)."""
    from games.chat.models import ChatMessage
    from games.matches import services as match_services
    from tests.games.graphql.support import make_player

    alice, bob = make_player(make_user), make_player(make_user)
    match = match_services.create_match(user=alice.user, game="han", players=2)
    match_services.join_match(user=bob.user, match_id=match.pk)

    sent_count = BURST + 5  # the hello took one token: at least six are over the rate

    async def scenario():
        client = await PlayClient.open(limited_tier, alice.token, headers=_address())
        for number in range(sent_count):
            await client.send({"op": "chat", "ref": f"c{number}", "match": str(match.pk),
                               "room": "players", "text": f"message {number}"})
        answers = {}
        while len(answers) < sent_count:
            frame = await client.next("ack", "refused", "error")
            assert frame["ref"] not in answers, frame  # one answer each
            answers[frame["ref"]] = frame
        await client.close()
        return answers

    answers = asyncio.run(scenario())
    assert set(answers) == {f"c{number}" for number in range(sent_count)}
    throttled = {ref for ref, frame in answers.items() if frame["op"] == "error"}
    assert {answers[ref]["error"]["code"] for ref in throttled} == {"throttled"}
    assert len(throttled) >= 2  # the rate refills a little while the others are handled
    # the handled ones: sent, or refused by the chat's own rate (5 in 10 s)
    acked = {ref for ref, frame in answers.items() if frame["op"] == "ack"}
    refused = {answers[ref]["error"]["code"] for ref, frame in answers.items()
               if frame["op"] == "refused"}
    assert refused <= {"chat_rate_limited"} and acked
    stored = set(ChatMessage.objects.filter(room__match_id=match.pk)
                 .values_list("text", flat=True))
    assert stored == {answers[ref]["message"]["text"] for ref in acked}
