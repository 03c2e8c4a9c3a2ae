"""matchUpdates over real websockets: daphne serving the ASGI app, the `websockets`
client speaking graphql-transport-ws, the real Redis channel layer, the real database.

Two players and a spectator subscribe; a move is made over REST; each receives the
update as they may see it (their own seat's view, or the spectator view)."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection
from websockets.exceptions import ConnectionClosed, InvalidStatus

from games.matches import services as match_services
from games.matches.models import Match, Move, Result
from games.matches.replay import replay_state
from rules import get_engine
from tests.games.graphql.asgi_server import (
    Subscriber,
    channel_layers_setting,
    http_json,
    running_daphne,
)
from tests.games.graphql.support import advance, make_player, start_match
from tests.games.support import assert_no_leak, eager_celery, known_card_ids

pytestmark = pytest.mark.django_db(transaction=True)

UPDATES = """
subscription Updates($id: ID!) {
  matchUpdates(matchId: $id) {
    matchId ply status toAct view
    seats { position kind user }
    moves { ply seat move }
    result { seed winners results { seat score rank } }
  }
}
"""


@pytest.fixture
def server(settings):
    # This process publishes too (moves made through the services): same layer as daphne.
    settings.CHANNEL_LAYERS = channel_layers_setting()
    with running_daphne() as address:
        yield address


def _known(match, ply, reader):
    return known_card_ids(match, ply, reader) if match.game == "hansa" else frozenset()


async def _subscribe_all(address, players, match_id):
    """Seat 0 authenticates in connection_init, seat 1 with ?token=, the third is an
    anonymous spectator."""
    subscribers = {
        0: Subscriber(address, token=players[0].token),
        1: Subscriber(address, token=players[1].token, token_in_query=True),
        None: Subscriber(address),
    }
    for subscriber in subscribers.values():
        assert (await subscriber.open())["type"] == "connection_ack"
        await subscriber.subscribe(UPDATES, {"id": str(match_id)})
    return subscribers


def _update(message):
    assert message["type"] == "next", message
    assert "errors" not in message["payload"], message
    return message["payload"]["data"]["matchUpdates"]


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_two_players_and_a_spectator_each_get_their_own_view_of_a_rest_move(
    server, game, players, make_user
):
    match_id = start_match(game, players)
    admin = make_player(lambda: make_user(is_staff=True, is_superuser=True))
    engine = get_engine(game)

    async def scenario():
        subscribers = await _subscribe_all(server, players, match_id)
        try:
            first = {reader: _update(await s.receive()) for reader, s in subscribers.items()}
            match = await asyncio.to_thread(_fetch, match_id)
            state = engine.from_json(match.state)
            for reader, update in first.items():
                assert update["ply"] == 0 and update["status"] == "ACTIVE"
                assert update["moves"] == []
                assert update["view"] == engine.view(state, reader)

            mover = engine.to_act(state)[0]
            move = engine.legal_moves(state, mover)[0]
            status, body = await asyncio.to_thread(
                http_json, server, "POST", f"/api/v1/matches/{match_id}/moves/",
                {"move": move, "expected_ply": 0}, players[mover].token,
            )
            assert status == 201, body

            pushed = {reader: _update(await s.receive()) for reader, s in subscribers.items()}
            match = await asyncio.to_thread(_fetch, match_id)
            state_after = engine.from_json(match.state)
            for reader, update in pushed.items():
                assert update["ply"] == 1
                assert update["toAct"] == engine.to_act(state_after)
                assert update["view"] == engine.view(state_after, reader)  # theirs alone
                assert [m["ply"] for m in update["moves"]] == [0]
                assert update["moves"][0]["move"] == engine.redact_move(move, mover, reader)
                known = await asyncio.to_thread(_known, match, 1, reader)
                assert_no_leak(update, game=game, state=match.state, seed=match.seed,
                               reader=reader, known=known, where=f"push to {reader}")
            if game == "hansa":  # the kept cards are a secret choice (ruling Q6)
                assert pushed[0]["moves"][0]["move"] == move
                assert pushed[1]["moves"][0]["move"] == {"type": "keep"}
                assert pushed[None]["moves"][0]["move"] == {"type": "keep"}
            if game == "han":  # each player's view has their own hand, the spectator none
                assert pushed[0]["view"]["hand"] == engine.to_json(state_after)["hands"][0]
                assert pushed[1]["view"]["hand"] == engine.to_json(state_after)["hands"][1]
                assert "hand" not in pushed[None]["view"]

            # An admin aborts over REST (after the first move only an admin may): one last
            # push, the seed shown, the stream ends.
            status, body = await asyncio.to_thread(
                http_json, server, "POST", f"/api/v1/matches/{match_id}/abort/", {},
                admin.token,
            )
            assert status == 200, body
            for subscriber in subscribers.values():
                last = _update(await subscriber.receive())
                assert last["status"] == "ABORTED" and last["result"] is None
                assert (await subscriber.receive())["type"] == "complete"
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    asyncio.run(scenario())


def test_a_whole_game_streams_every_ply_once_and_the_result_at_the_end(server, players):
    two = players[:2]
    match_id = start_match("hansa", two)
    engine = get_engine("hansa")

    async def scenario():
        subscribers = {
            0: Subscriber(server, token=two[0].token),
            1: Subscriber(server, token=two[1].token),
            None: Subscriber(server),
        }
        try:
            for subscriber in subscribers.values():
                assert (await subscriber.open())["type"] == "connection_ack"
                await subscriber.subscribe(UPDATES, {"id": str(match_id)})
            for subscriber in subscribers.values():
                assert _update(await subscriber.receive())["ply"] == 0
            # Both people play every move through the services in another thread (this
            # one runs the event loop); each commit publishes to the channel layer.
            await asyncio.to_thread(_play_to_the_end, match_id, two)
            streams = {}
            for reader, subscriber in subscribers.items():
                updates = []
                while True:
                    message = await subscriber.receive()
                    if message["type"] == "complete":
                        break
                    updates.append(_update(message))
                streams[reader] = updates
            return streams
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    streams = asyncio.run(scenario())
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"
    rows = list(Result.objects.filter(match_id=match_id).order_by("seat"))
    logged = list(Move.objects.filter(match_id=match_id).order_by("ply"))
    for reader, updates in streams.items():
        plies = [move["ply"] for update in updates for move in update["moves"]]
        assert plies == list(range(match.ply)), f"{reader}: gap or duplicate in {plies}"
        final = updates[-1]
        assert final["status"] == "FINISHED"
        assert final["result"]["seed"] == match.seed
        assert [r["score"] for r in final["result"]["results"]] == [row.score for row in rows]
        for update in updates:
            if update["status"] in ("FINISHED", "ABORTED"):
                continue
            # Each push, checked against the true state at its ply: nothing hidden.
            past = engine.to_json(replay_state(match, upto=update["ply"]))
            assert_no_leak(update, game="hansa", state=past, seed=match.seed, reader=reader,
                           known=known_card_ids(match, update["ply"], reader),
                           where=f"push {update['ply']} to {reader}")
            for shown in update["moves"]:
                true_move = logged[shown["ply"]]
                assert shown["move"] == engine.redact_move(true_move.move, true_move.seat,
                                                           reader)


def _fetch(match_id):
    try:
        return Match.objects.get(pk=match_id)
    finally:
        connection.close()  # this worker thread's own connection


def _play_to_the_end(match_id, players):
    try:
        with eager_celery():  # the final scoring runs inline and publishes "finished"
            while Match.objects.get(pk=match_id).status == "active":
                advance(match_id, players, 1)
    finally:
        connection.close()


def test_websocket_authentication_and_bad_subscriptions(server, players):
    match_id = start_match("hansa", players[:2])

    async def scenario():
        bad_init = Subscriber(server, token="not-a-token")
        with pytest.raises(ConnectionClosed):
            await bad_init.open()
        assert bad_init.ws.close_code == 4403  # graphql-transport-ws: Forbidden

        bad_query = Subscriber(server, token="not-a-token", token_in_query=True)
        with pytest.raises(InvalidStatus) as refused:
            await bad_query.open()
        assert refused.value.response.status_code == 403  # handshake refused

        spectator = Subscriber(server)
        try:
            assert (await spectator.open())["type"] == "connection_ack"
            for bad_id, code in (("999999", "match_not_found"), ("abc", "match_not_found")):
                await spectator.subscribe(UPDATES, {"id": bad_id})
                message = await spectator.receive()
                errors = message["payload"] if message["type"] == "error" else message[
                    "payload"]["errors"]
                assert errors[0]["extensions"]["code"] == code, message
                if message["type"] == "next":
                    assert (await spectator.receive())["type"] == "complete"
            # A good subscription on the same socket still works afterwards.
            await spectator.subscribe(UPDATES, {"id": str(match_id)})
            assert _update(await spectator.receive())["matchId"] == str(match_id)
        finally:
            await spectator.close()

        # Queries run over the socket too, as the socket's user.
        player = Subscriber(server, token=players[1].token)
        try:
            assert (await player.open())["type"] == "connection_ack"
            await player.subscribe(
                "query Q($id: ID!) { me { username } match(id: $id) { yourSeat view } }",
                {"id": str(match_id)},
            )
            message = await player.receive()
            assert message["type"] == "next" and "errors" not in message["payload"], message
            data = message["payload"]["data"]
            assert data["me"]["username"] == players[1].user.username
            assert data["match"]["yourSeat"] == 1 and data["match"]["view"]["viewer"] == 1
        finally:
            await player.close()

    asyncio.run(scenario())


def test_lobby_changes_are_pushed_until_the_match_starts(server, players):
    open_match = match_services.create_match(user=players[0].user, game="han", players=3).pk

    def join(player):
        try:
            match_services.join_match(user=player.user, match_id=open_match)
        finally:
            connection.close()

    async def scenario():
        watcher = Subscriber(server, token=players[1].token)
        try:
            assert (await watcher.open())["type"] == "connection_ack"
            await watcher.subscribe(UPDATES, {"id": str(open_match)})
            first = _update(await watcher.receive())
            assert first["status"] == "OPEN" and first["view"] is None
            assert [seat["kind"] for seat in first["seats"]] == ["HUMAN", "OPEN", "OPEN"]

            await asyncio.to_thread(join, players[1])
            joined = _update(await watcher.receive())
            assert joined["status"] == "OPEN"
            assert [seat["user"] for seat in joined["seats"]][:2] == [
                players[0].user.username, players[1].user.username
            ]

            await asyncio.to_thread(join, players[2])
            started = _update(await watcher.receive())
            assert started["status"] == "ACTIVE" and started["ply"] == 0
            state = await asyncio.to_thread(_fetch, open_match)
            engine = get_engine("han")
            assert started["view"] == engine.view(engine.from_json(state.state), 1)
        finally:
            await watcher.close()

    asyncio.run(scenario())

