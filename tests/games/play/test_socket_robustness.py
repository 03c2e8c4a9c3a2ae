"""The play socket under bad input, wrong origins, revoked access and slow readers: every
malformed frame gets an error code and the socket goes on; a wrong origin is refused at the
handshake; a revoked token's socket is closed before it is sent anything more; a reader
that stops reading is cut off without delaying anyone else."""

from __future__ import annotations

import asyncio
import json
import socket
import time

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.games.graphql.asgi_server import http_json, running_web_tier
from tests.games.graphql.support import advance, start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

MALFORMED = [
    ("{not json", "malformed_message"),
    ("[1, 2]", "malformed_message"),
    ("7", "malformed_message"),
    ('"hello"', "malformed_message"),
    ("[" * 200 + "]" * 200, "malformed_message"),
    (json.dumps({"op": "subscribe", "match": {"a": 1}}), "match_not_found"),
    (json.dumps({"op": "subscribe", "match": "1", "since": -1}), "malformed_message"),
    (json.dumps({"op": "subscribe", "match": "1", "since": 2**70}), "malformed_message"),
    (json.dumps({"op": "subscribe", "match": 2**80}), "match_not_found"),
    (json.dumps({"op": "subscribe", "match": "1", "since": "3"}), "malformed_message"),
    (json.dumps({"op": "subscribe"}), "malformed_message"),
    (json.dumps({"op": "subscribe", "match": "1", "extra": True}), "malformed_message"),
    (json.dumps({"op": "launch"}), "unknown_op"),
    (json.dumps({"op": None}), "unknown_op"),
    (json.dumps({"op": "ping", "ref": {"x": 1}}), "malformed_message"),
    (json.dumps({"op": "ping", "ref": "r" * 65}), "malformed_message"),
    (json.dumps({"op": "hello", "token": "again"}), "already_authenticated"),
    (json.dumps({"op": "move", "match": "1", "move": {"type": "pass"},
                 "expected_ply": 1.5}), "malformed_message"),
    (json.dumps({"op": "feed", "after": True}), "malformed_message"),
]


def test_malformed_frames_get_error_codes_and_the_socket_goes_on(web_tier, players):
    async def scenario():
        client = await PlayClient.open(web_tier, players[0].token)
        for text, code in MALFORMED:
            await client.send(text)
            answer = await client.next("error", "refused")
            assert answer["error"]["code"] == code, (text[:60], answer)
        await client.send(b"\x00\xff binary")
        assert (await client.next("error"))["error"]["code"] == "malformed_message"
        await client.send("x" * (3 * 1024 * 1024))
        assert (await client.next("error"))["error"]["code"] == "payload_too_large"
        assert (await client.request({"op": "ping", "ref": 7}, "pong"))["ref"] == 7
        await client.close()

    asyncio.run(scenario())


def test_an_anonymous_socket_watches_but_cannot_move_and_hello_comes_first(web_tier,
                                                                             players):
    match_id = start_match("han", players[:2])

    async def scenario():
        spectator = await PlayClient.open(web_tier, None)
        sync = await spectator.subscribe(match_id)
        assert sync["seat"] is None and sync["legal_moves"] is None and sync["view"]
        refused = await spectator.request(
            {"op": "move", "match": str(match_id), "move": {"type": "pass"}}, "error")
        assert refused["error"]["code"] == "authentication_required"
        await spectator.close()

        rude = await PlayClient.open(web_tier, hello=False)
        await rude.send({"op": "subscribe", "match": str(match_id)})
        assert (await rude.next("error"))["error"]["code"] == "authentication_required"
        with pytest.raises(ConnectionClosed) as closed:
            await rude.next()
        assert closed.value.rcvd.code == 4401

        bad = await PlayClient.open(web_tier, hello=False)
        await bad.send({"op": "hello", "token": "not-a-token"})
        assert (await bad.next("error"))["error"]["code"] == "not_authenticated"
        with pytest.raises(ConnectionClosed) as closed:
            await bad.next()
        assert closed.value.rcvd.code == 4401

    asyncio.run(scenario())


def test_a_socket_from_a_wrong_origin_is_refused_at_the_handshake(web_tier):
    async def scenario():
        with pytest.raises(InvalidStatus) as refused:
            await PlayClient.open(web_tier, None, origin="https://evil.example")
        assert refused.value.response.status_code == 403

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def announcement_only_tier(django_db_setup, django_db_blocker):
    """Two web processes whose backstop access check never runs within a test: only the
    revocation's announcement (accounts/revocation.py -> the play hubs) can close a socket."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2,
                              extra_env={"PLAY_ACCESS_CHECK_SECONDS": "3600"}) as address:
            yield address


def test_a_revoked_token_s_socket_is_closed_before_the_next_push(announcement_only_tier,
                                                                 players):
    web_tier = announcement_only_tier
    match_id = start_match("han", players[:2])

    async def scenario():
        clients = [await PlayClient.open(web_tier, player.token) for player in players[:2]]
        syncs = [await client.subscribe(match_id) for client in clients]
        to_act = syncs[0]["to_act"][0]
        watcher = clients[1 - to_act]
        status, _ = await asyncio.to_thread(http_json, web_tier, "DELETE", "/api/v1/auth/token/",
                                            None, players[1 - to_act].token)
        assert status == 204
        # the very next move, sent the moment the revocation is answered, must not reach
        # the revoked socket: the announcement is ahead of its push on every process
        legal = syncs[to_act]["legal_moves"]
        answer = await clients[to_act].move(match_id, legal[0], expected_ply=syncs[0]["ply"])
        assert answer["op"] == "ack"
        revoked = await watcher.next("error", timeout=10)
        assert revoked["error"]["code"] == "access_revoked"
        with pytest.raises(ConnectionClosed) as closed:
            await watcher.next(timeout=10)
        assert closed.value.rcvd.code == 4401
        assert not [frame for frame in watcher.frames if frame["op"] == "update"]
        await clients[to_act].close()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def small_queue_tier(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        # its slow reader sends 2000 messages at once: no message rate here
        with running_web_tier(processes=1, extra_env={"PLAY_SEND_QUEUE": "16",
                                                      "PLAY_MESSAGES_PER_SECOND": "0"}) as address:
            yield address


def test_a_reader_that_stops_reading_is_cut_off_and_nobody_waits_for_it(small_queue_tier,
                                                                        players):
    match_id = start_match("han", players[:2])
    advance(match_id, players[:2], 40)  # so that a sync from ply 0 is long (40 moves)

    async def scenario():
        # A reader that does not read: the client library stops reading after one frame
        # (max_queue=1) and its socket's receive buffer is small, so the server's writes
        # back up through the kernel's buffers into the socket's own queue (16 frames).
        host, port = small_queue_tier.split(":")
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect((host, int(port)))
        slow = await PlayClient.open(small_queue_tier, players[0].token, max_queue=1, sock=raw)
        brisk = await PlayClient.open(small_queue_tier, players[1].token)
        await brisk.subscribe(match_id)
        for _ in range(2000):  # ~20 MB of answers: more than the kernel buffers hold
            await slow.send({"op": "subscribe", "match": str(match_id), "since": 0})
        # while the slow reader's answers pile up, another socket is answered at once
        slowest, number, until = 0.0, 0, time.monotonic() + 5
        while time.monotonic() < until:
            started = time.monotonic()
            assert (await brisk.request({"op": "ping", "ref": number}, "pong"))["ref"] == number
            slowest = max(slowest, time.monotonic() - started)
            number += 1
            await asyncio.sleep(0.05)
        assert slowest < 1.0
        closed_with = None
        for _ in range(100_000):  # what the kernel held before the close frame
            try:
                await slow.next(timeout=5)
            except ConnectionClosed as closed:
                closed_with = closed.rcvd.code if closed.rcvd else None
                break
            except TimeoutError:
                size = sum(len(json.dumps(frame)) for frame in slow.frames)
                raise AssertionError(f"no close after {len(slow.frames)} frames, {size} B: "
                                     f"{slow.frames[-1:]}") from None
        assert closed_with == 4408
        assert len(slow.frames) < 3000  # cut off, not served to the end
        await brisk.close()

    asyncio.run(scenario())


@pytest.fixture(scope="module")
def strict_auth_tier(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        with running_web_tier(processes=1, extra_env={
                "DJANGO_SETTINGS_MODULE": "config.settings",
                "THROTTLE_SOCKET_AUTH": "1/min"}) as address:
            yield address


def test_a_throttled_hello_leaves_the_socket_open_for_another_try(strict_auth_tier, players):
    async def scenario():
        first = await PlayClient.open(strict_auth_tier, players[0].token)
        await first.close()
        second = await PlayClient.open(strict_auth_tier, hello=False)
        await second.send({"op": "hello", "token": players[0].token})
        refused = await second.next("error")
        assert refused["error"]["code"] == "throttled"
        assert refused["error"]["details"]["retry_after_seconds"] >= 1
        await second.send({"op": "hello", "token": players[0].token})  # still open
        assert (await second.next("error"))["error"]["code"] == "throttled"
        await second.close()

    asyncio.run(scenario())
