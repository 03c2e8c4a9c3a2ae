"""The mover's own ``update`` (issue 45): the process that committed a move pushes it to
its own followers from the state it holds, and the Pub/Sub copy it publishes for the
other processes is dropped by its own listener (games/live/fanout.py), so on two web
processes every socket gets each ply's update exactly once, in ply order, the mover's
after its ``ack``; and two moves sent at one ply land once."""

from __future__ import annotations

import asyncio

import pytest

from games.matches.models import Move
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

PLIES = 10


def _pick(moves: list[dict]) -> dict:
    place = [move for move in moves if move["type"] == "place"]
    return (place or moves)[0]


async def _drain(client: PlayClient, quiet: float = 1.0) -> None:
    """Read until nothing more comes for ``quiet`` seconds (a late duplicate would)."""
    try:
        while True:
            await client.next(timeout=quiet)
    except TimeoutError:
        pass


def _updates(client: PlayClient) -> list[tuple[int, int]]:
    return [(frame["since"], frame["ply"]) for frame in client.frames
            if frame["op"] == "update"]


def test_every_socket_gets_each_ply_s_update_once_and_in_order(web_tier, players):
    match_id = start_match("han", players[:2])

    async def scenario():
        # each player twice: on two processes, some sockets share the mover's process
        # and some hear the move over Pub/Sub
        sockets = [[await PlayClient.open(web_tier, player.token) for _ in range(2)]
                   for player in players[:2]]
        syncs = [[await client.subscribe(match_id) for client in pair] for pair in sockets]
        start = syncs[0][0]["ply"]
        to_act = syncs[0][0]["to_act"][0]
        legal = syncs[to_act][0]["legal_moves"]
        for ply in range(start, start + PLIES):
            mover = sockets[to_act][ply % 2]
            answer = await mover.move(match_id, _pick(legal), expected_ply=ply)
            assert answer["op"] == "ack" and answer["ply"] == ply + 1, answer
            for client in (client for pair in sockets for client in pair):
                update = await client.next("update")
                while update["ply"] != ply + 1:  # an earlier ply's, already counted
                    update = await client.next("update")
                if client is sockets[0][0]:
                    to_act = update["to_act"][0]
            pushed = [frame for frame in sockets[to_act][0].frames if frame["op"] == "update"]
            legal = pushed[-1]["legal_moves"]
        for pair in sockets:
            for client in pair:
                await _drain(client)
        expected = [(ply, ply + 1) for ply in range(start, start + PLIES)]
        for pair in sockets:
            for client in pair:
                assert _updates(client) == expected  # once each, in order, none missing
                received = [(frame["op"], frame.get("ply")) for frame in client.frames]
                for ply in range(start + 1, start + PLIES + 1):
                    if ("ack", ply) in received:  # the mover: its ack before its update
                        assert received.index(("ack", ply)) < received.index(("update", ply))
                await client.close()

    asyncio.run(scenario())


def test_two_moves_sent_at_one_ply_land_once(web_tier, players):
    match_id = start_match("han", players[:2])

    async def scenario():
        first = await PlayClient.open(web_tier, players[0].token)
        sync = await first.subscribe(match_id)
        player = players[sync["to_act"][0]]
        sockets = [await PlayClient.open(web_tier, player.token) for _ in range(2)]
        syncs = [await client.subscribe(match_id) for client in sockets]
        legal, ply = syncs[0]["legal_moves"], syncs[0]["ply"]
        answers = await asyncio.gather(*(
            client.move(match_id, _pick(legal), expected_ply=ply) for client in sockets))
        ops = sorted(answer["op"] for answer in answers)
        assert ops == ["ack", "refused"], answers
        refused = next(answer for answer in answers if answer["op"] == "refused")
        assert refused["error"]["code"] in ("stale_ply", "not_your_turn"), refused
        for client in (first, *sockets):
            await client.close()

    asyncio.run(scenario())
    assert list(Move.objects.filter(match_id=match_id).values_list("ply", flat=True)) == [0]
