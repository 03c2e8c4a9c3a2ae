"""Playing over the play socket (docs/play.md) against the production web tier: moves in,
acknowledged only after the commit, each reader's view and legal moves pushed out,
refusals with REST's codes, and a resubscribe that returns exactly what was missed."""

from __future__ import annotations

import asyncio

import pytest

from games.matches.models import Move
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def _pick(moves: list[dict]) -> dict:
    place = [move for move in moves if move["type"] == "place"]
    return (place or moves)[0]


async def _seats(address, players, match_id):
    clients = [await PlayClient.open(address, player.token) for player in players]
    syncs = [await client.subscribe(match_id) for client in clients]
    return clients, syncs


def test_two_players_play_over_their_sockets_and_every_ack_follows_the_commit(web_tier,
                                                                                players):
    match_id = start_match("han", players[:2])

    async def scenario():
        clients, syncs = await _seats(web_tier, players[:2], match_id)
        assert [sync["seat"] for sync in syncs] == [0, 1]
        to_act = syncs[0]["to_act"][0]
        assert syncs[to_act]["legal_moves"] and syncs[1 - to_act]["legal_moves"] is None
        legal, ply = syncs[to_act]["legal_moves"], syncs[0]["ply"]
        for _ in range(12):
            mover, other = clients[to_act], clients[1 - to_act]
            answer = await mover.move(match_id, _pick(legal), expected_ply=ply)
            assert answer["op"] == "ack", answer
            assert answer["ply"] == ply + 1
            # committed before the ack: the log row is there
            assert await asyncio.to_thread(
                Move.objects.filter(match_id=match_id, ply=ply).exists)
            own = await mover.next("update")
            seen = await other.next("update")
            # on the mover's socket the ack comes before the update of its ply (the ack
            # is queued before the process hands the move's pushes to its followers)
            received = [(frame["op"], frame.get("ply")) for frame in mover.frames]
            assert received.index(("ack", ply + 1)) < received.index(("update", ply + 1))
            for update in (own, seen):
                assert update["since"] == ply and update["ply"] == ply + 1
                assert [move["ply"] for move in update["moves"]] == [ply]
            ply += 1
            to_act = seen["to_act"][0]
            pushed = own if to_act == (clients.index(mover)) else seen
            assert pushed["legal_moves"], "the seat to act gets its legal moves pushed"
            legal = pushed["legal_moves"]
        for client in clients:
            await client.close()

    asyncio.run(scenario())
    assert Move.objects.filter(match_id=match_id).count() == 12


def test_a_refused_move_carries_rest_s_code_and_status(web_tier, players):
    match_id = start_match("han", players[:2])

    async def scenario():
        clients, syncs = await _seats(web_tier, players[:2], match_id)
        to_act = syncs[0]["to_act"][0]
        legal = syncs[to_act]["legal_moves"]
        stale = await clients[to_act].move(match_id, _pick(legal), expected_ply=5)
        assert stale["op"] == "refused" and stale["status"] == 409
        assert stale["error"]["code"] == "stale_ply"
        not_yours = await clients[1 - to_act].move(match_id, _pick(legal))
        assert not_yours["error"]["code"] == "not_your_turn"
        illegal = await clients[to_act].move(match_id, {"type": "fly"})
        assert illegal["op"] == "refused" and illegal["status"] == 400
        missing = await clients[to_act].move("999999", _pick(legal))
        assert missing["error"]["code"] == "match_not_found" and missing["status"] == 404
        for client in clients:
            await client.close()

    asyncio.run(scenario())
    assert not Move.objects.filter(match_id=match_id).exists()


def test_a_resubscribe_with_since_returns_exactly_the_missed_moves(web_tier, players):
    match_id = start_match("han", players[:2])

    async def scenario():
        clients, syncs = await _seats(web_tier, players[:2], match_id)
        to_act, ply = syncs[0]["to_act"][0], syncs[0]["ply"]
        legal = syncs[to_act]["legal_moves"]
        await clients[1].close()  # seat 1 goes away at ply `ply`
        watcher = clients[0]
        for _ in range(5):
            seat = to_act
            client = watcher if seat == 0 else await PlayClient.open(web_tier,
                                                                     players[1].token)
            if client is not watcher:
                sync = await client.subscribe(match_id)
                legal = sync["legal_moves"]
            answer = await client.move(match_id, _pick(legal), expected_ply=ply + 0)
            assert answer["op"] == "ack", answer
            update = await watcher.next("update")
            ply, to_act, legal = update["ply"], update["to_act"][0], update["legal_moves"]
            if client is not watcher:
                await client.close()
        back = await PlayClient.open(web_tier, players[1].token)
        resync = await back.subscribe(match_id, since=syncs[1]["ply"])
        assert resync["since"] == syncs[1]["ply"] and resync["ply"] == ply
        assert [move["ply"] for move in resync["moves"]] == list(range(syncs[1]["ply"], ply))
        await back.close()
        await watcher.close()

    asyncio.run(scenario())
