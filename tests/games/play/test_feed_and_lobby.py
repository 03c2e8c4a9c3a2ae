"""The play socket also carries the user's feed (missed events first, then live ones,
resumed after a reconnect from the last id) and pushes changes that are not moves (a
player joining a lobby, the match starting)."""

from __future__ import annotations

import asyncio

import pytest

from games.matches import services as match_services
from tests.games.graphql.asgi_server import http_json
from tests.games.graphql.support import start_match
from tests.games.play.client import PlayClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def test_the_feed_replays_what_was_missed_then_pushes_and_resumes(web_tier, players):
    match_id = start_match("han", players[:2])  # "match started" and "your turn" events

    async def scenario():
        client = await PlayClient.open(web_tier, players[0].token)
        await client.send({"op": "feed", "after": 0})
        first = await client.next("feed_event")
        backlog = [first]
        while True:
            try:
                backlog.append(await client.next("feed_event", timeout=1))
            except TimeoutError:
                break
        assert all(event["event"]["match_id"] == match_id for event in backlog
                   if "match_id" in event["event"])
        ids = [event["event"]["id"] for event in backlog]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        again = await client.request({"op": "feed", "ref": "x"}, "error")
        assert again["error"]["code"] == "already_following"
        await client.close()
        # a new event while away, then a reconnect from the last id: only that one
        sync = None
        watcher = await PlayClient.open(web_tier, players[1].token)
        sync = await watcher.subscribe(match_id)
        to_act = sync["to_act"][0]
        mover = watcher if to_act == 1 else await PlayClient.open(web_tier, players[0].token)
        if mover is not watcher:
            sync = await mover.subscribe(match_id)
        assert (await mover.move(match_id, sync["legal_moves"][0],
                                 expected_ply=sync["ply"]))["op"] == "ack"
        back = await PlayClient.open(web_tier, players[0].token)
        # an id past the newest event of the feed: refused, not silence (issue 22)
        ahead = await back.request({"op": "feed", "after": 10**12, "ref": "a"}, "error")
        assert ahead["error"]["code"] == "last_event_id_ahead"
        assert ahead["error"]["details"]["last_event_id"] == 10**12
        await back.send({"op": "feed", "after": ids[-1]})
        resumed = await back.next("feed_event")
        assert resumed["event"]["id"] > ids[-1]
        anonymous = await PlayClient.open(web_tier, None)
        refused = await anonymous.request({"op": "feed"}, "error")
        assert refused["error"]["code"] == "authentication_required"
        for each in {back, watcher, mover, anonymous}:
            await each.close()

    asyncio.run(scenario())


def test_a_lobby_follower_hears_a_join_and_the_start(web_tier, players):
    lobby = match_services.create_match(user=players[0].user, game="han", players=3)

    async def scenario():
        creator = await PlayClient.open(web_tier, players[0].token)
        sync = await creator.subscribe(lobby.pk)
        assert sync["status"] == "open" and sync["view"] is None
        # joins through the server: its announcements reach the sockets' channel layer
        status, _ = await asyncio.to_thread(http_json, web_tier, "POST",
                                            f"/api/v1/matches/{lobby.pk}/join/", {},
                                            players[1].token)
        assert status in (200, 201)
        joined = await creator.next("update")
        assert [seat["kind"] for seat in joined["seats"]] == ["human", "human", "open"]
        status, _ = await asyncio.to_thread(http_json, web_tier, "POST",
                                            f"/api/v1/matches/{lobby.pk}/join/", {},
                                            players[2].token)
        assert status in (200, 201)
        started = await creator.next("update")
        while started["status"] == "open":
            started = await creator.next("update")
        assert started["status"] == "active" and started["view"] is not None
        await creator.close()

    asyncio.run(scenario())
