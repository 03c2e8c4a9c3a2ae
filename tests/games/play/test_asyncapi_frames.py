"""docs/asyncapi.yaml cannot drift from the server: a whole match played over the play
socket against the production web tier (two uvicorn processes), with every frame the
server sends recorded and validated against the document's message schemas (jsonschema,
with every object closed: a field the document does not name fails).

The match is a two-player Hansa game played to its end by two seats on their own sockets,
with a spectator watching, a player following their feed (stored events first, then live
ones), refused moves (a stale ply, a player without a seat), a reconnect that resumes with
``subscribe`` and ``since``, an unsubscribe and resubscribe with ``since``, pings both
ways (the server's heartbeat set to 1 s) and the messages that cannot be handled. Every
server op of the document must have been seen, and every client message sent (but the
deliberately wrong ones) must be one of the document's client messages."""

from __future__ import annotations

import asyncio
import json

import pytest
from rest_framework.test import APIClient
from websockets.exceptions import ConnectionClosed

from games.matches.models import Match
from tests import asyncapi
from tests.games.graphql.asgi_server import running_web_tier
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

#: a Hansa match between two players ends after about 50 plies; a bound all the same
MAX_PLIES = 400


@pytest.fixture(scope="module")
def web_tier(django_db_setup, django_db_blocker):
    """The production web tier with a heartbeat every second, so pings are recorded too."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2, extra_env={"PLAY_HEARTBEAT_SECONDS": "1"}) as address:
            yield address


class Recorder(PlayClient):
    """A PlayClient that keeps every client message it sent (``sent``), and reads every
    frame still unread at the end (``drain``)."""

    def __init__(self, ws) -> None:
        super().__init__(ws)
        self.sent: list[dict] = []

    async def send(self, message, *, documented: bool = True) -> None:
        if documented:
            self.sent.append(message)
        await super().send(message)

    async def drain(self, quiet: float = 0.3) -> None:
        try:
            while True:
                await self.next(timeout=quiet)
        except (TimeoutError, ConnectionClosed):
            pass

    def recorded(self) -> list[dict]:
        return list(self.frames)


async def read_until_ply(client: PlayClient, ply: int) -> dict:
    """The ``update`` frames of ``client`` until one reaches ``ply``: the last one."""
    while True:
        update = await client.next("update")
        if update["ply"] >= ply:
            return update


def _say_in_chat(player, match_id, text: str) -> None:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {player.token}")
    answer = client.post(f"/api/v1/matches/{match_id}/chat/players/", {"text": text},
                         format="json")
    assert answer.status_code == 201, answer.content


async def play_the_match(web_tier, players, match_id) -> list[Recorder]:
    a, b, outsider = players
    seats = [await Recorder.open(web_tier, a.token), await Recorder.open(web_tier, b.token)]
    spectator = await Recorder.open(web_tier, None)
    stranger = await Recorder.open(web_tier, outsider.token)
    sockets = [*seats, spectator, stranger]

    # pings both ways, the feed's stored events (match started, your turn)
    assert (await seats[0].request({"op": "ping", "ref": 1}, "pong")) == {"op": "pong",
                                                                         "ref": 1}
    await seats[0].send({"op": "feed", "after": 0, "ref": "feed"})
    assert (await seats[0].next("feed_event"))["event"]["kind"] in ("match_started",
                                                                  "your_turn")

    # messages that cannot be handled: each an error, the socket stays open
    await spectator.send("not json", documented=False)
    assert (await spectator.next("error"))["error"]["code"] == "malformed_message"
    await spectator.send({"op": "jump", "ref": "j"}, documented=False)
    assert (await spectator.next("error"))["error"]["code"] == "unknown_op"
    await spectator.send({"op": "ping", "hop": 1}, documented=False)
    assert (await spectator.next("error"))["error"]["code"] == "malformed_message"
    assert (await spectator.request({"op": "feed"}, "error"))["error"]["code"] == \
        "authentication_required"
    assert (await spectator.request({"op": "hello", "token": None}, "error"))["error"][
        "code"] == "already_authenticated"
    missing = await spectator.request({"op": "subscribe", "match": "999999999", "ref": 9},
                                      "error")
    assert missing["error"]["code"] == "match_not_found" and missing["ref"] == 9

    syncs = [await client.subscribe(match_id) for client in seats]
    watched = await spectator.subscribe(match_id)
    assert [sync["seat"] for sync in syncs] == [0, 1] and watched["seat"] is None
    # a message of the players' room, sent over REST: pushed to both seats (docs/chat.md)
    await asyncio.to_thread(_say_in_chat, a, match_id, "good luck")
    for client in seats:
        assert (await client.next("chat"))["text"] == "good luck"
    # and one sent over the socket: acked after its commit, then pushed to both seats
    said = await seats[1].request({"op": "chat", "ref": "c", "match": str(match_id),
                                   "room": "players", "text": "have fun"}, "ack", "refused")
    assert said["op"] == "ack" and said["message"]["text"] == "have fun", said
    for client in seats:
        assert (await client.next("chat"))["text"] == "have fun"
    latest = {0: syncs[0], 1: syncs[1]}
    ply, status = syncs[0]["ply"], syncs[0]["status"]
    refused = reconnected = resubscribed = False
    watched_ply = watched["ply"]

    while status == "active" and ply < MAX_PLIES:
        seat = next(seat for seat in (0, 1) if latest[seat]["legal_moves"])
        mover = seats[seat]
        move = latest[seat]["legal_moves"][0]
        if not refused:  # a stale ply, and a signed-in player without a seat
            stale = await mover.move(match_id, move, expected_ply=ply + 3, ref="stale")
            assert stale["op"] == "refused" and stale["error"]["code"] == "stale_ply"
            outside = await stranger.move(match_id, move, expected_ply=ply, ref="outside")
            assert outside["op"] == "refused" and outside["status"] == 403
            refused = True
        ack = await mover.move(match_id, move, expected_ply=ply, ref=f"m{ply}")
        assert ack["op"] == "ack" and ack["ply"] == ply + 1, ack
        ply = ack["ply"]
        for other in (0, 1):
            latest[other] = await read_until_ply(seats[other], ply)
        status = latest[0]["status"]

        if ply == 10 and not resubscribed:  # the spectator steps away, then resumes
            watched_ply = (await read_until_ply(spectator, ply))["ply"]
            await spectator.request({"op": "unsubscribe", "match": str(match_id)},
                                    "unsubscribed")
        if ply == 14 and not resubscribed:
            resumed = await spectator.subscribe(match_id, since=watched_ply)
            assert [move["ply"] for move in resumed["moves"]] == list(range(watched_ply, ply))
            resubscribed = True
        if ply >= 20 and not reconnected and latest[0]["legal_moves"] \
                and not latest[1]["legal_moves"]:
            # seat 1 loses its socket; seat 0 moves; seat 1 comes back with since
            last_seen = latest[1]["ply"]
            await seats[1].close()
            ack = await seats[0].move(match_id, latest[0]["legal_moves"][0], expected_ply=ply)
            assert ack["op"] == "ack"
            ply = ack["ply"]
            latest[0] = await read_until_ply(seats[0], ply)
            back = await Recorder.open(web_tier, b.token)
            sockets.append(back)
            latest[1] = await back.subscribe(match_id, since=last_seen)
            assert [move["ply"] for move in latest[1]["moves"]] == list(range(last_seen, ply))
            seats[1] = back
            status = latest[0]["status"]
            reconnected = True

    assert refused and reconnected and resubscribed
    assert status != "active", f"no end after {MAX_PLIES} plies"
    # the end is pushed too (scoring, then finished); the feed announces it
    final = latest[0]
    while final["status"] != "finished":
        final = await seats[0].next("update")
    while (await seats[0].next("feed_event"))["event"]["kind"] != "match_finished":
        pass
    await asyncio.sleep(1.2)  # at least one heartbeat on every socket
    for client in sockets:
        await client.drain()
    return sockets


async def refused_token(web_tier) -> Recorder:
    client = await Recorder.open(web_tier, hello=False)
    await client.send({"op": "hello", "token": "not-a-token", "ref": "h"})
    error = await client.next("error")
    assert error["error"]["code"] == "not_authenticated"
    with pytest.raises(ConnectionClosed):
        while True:  # a heartbeat may come before the close
            await client.next(timeout=5)
    assert client.ws.close_code == 4401
    return client


def test_every_frame_of_a_played_match_is_a_message_of_the_document(web_tier, players):
    match_id = start_match("hansa", players[:2])

    async def scenario():
        sockets = await play_the_match(web_tier, players, match_id)
        sockets.append(await refused_token(web_tier))
        for client in sockets:
            await client.close()
        return sockets

    sockets = asyncio.run(scenario())
    assert Match.objects.get(pk=match_id).status == "finished"

    frames = [frame for client in sockets for frame in client.recorded()]
    problems = [(frame["op"], error) for frame in frames
                for error in asyncapi.frame_errors(frame, "server")]
    assert not problems, json.dumps(problems[:20], indent=1)
    seen = {frame["op"] for frame in frames}
    assert seen == set(asyncapi.messages_by_direction()["server"]), \
        f"server ops never seen: {set(asyncapi.messages_by_direction()['server']) - seen}"
    assert len(frames) > 200

    sent = [message for client in sockets for message in client.sent]
    wrong = [(message, asyncapi.frame_errors(message, "client")) for message in sent
             if asyncapi.frame_errors(message, "client")]
    assert not wrong, wrong
    assert {message["op"] for message in sent} == set(asyncapi.messages_by_direction()["client"])


def test_each_socket_s_pushes_chain_without_a_gap(web_tier, players):
    """What the document promises of ``since``: each ``update`` starts at the ``ply`` of
    the previous ``sync`` or ``update`` of its match on that socket, and its moves are
    exactly those plies."""
    match_id = start_match("hansa", players[:2])

    async def scenario():
        sockets = await play_the_match(web_tier, players, match_id)
        for client in sockets:
            await client.close()
        return sockets

    for client in asyncio.run(scenario()):
        previous = None
        for frame in client.recorded():
            if frame["op"] == "unsubscribed":
                previous = None
            if frame["op"] not in ("sync", "update"):
                continue
            assert [move["ply"] for move in frame["moves"]] == \
                list(range(frame["since"], frame["ply"])), frame
            if frame["op"] == "update":
                assert previous is not None and frame["since"] == previous["ply"], \
                    (previous, frame)
            previous = frame
