"""matchUpdates pushes each new move with its events, redacted per subscriber: the card a
Han player draws from the pile reaches that player only; the opponent and a spectator see
"drew a card" (engine.redact_event). Real daphne, websockets and Redis channel layer."""

from __future__ import annotations

import asyncio

import pytest

from games.matches import selectors, services
from tests.games.graphql.asgi_server import (
    Subscriber,
    channel_layers_setting,
    http_json,
    running_daphne,
)
from tests.games.graphql.support import start_match

pytestmark = pytest.mark.django_db(transaction=True)

UPDATES = """
subscription Updates($id: ID!) {
  matchUpdates(matchId: $id) { ply moves { ply seat events } }
}
"""


@pytest.fixture
def server(settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()
    with running_daphne() as address:
        yield address


def _discard_first(match_id, players) -> int:
    """The seat to act discards (then owes its draws); returns that seat."""
    match = selectors.get_match(match_id)
    seat = selectors.to_act_of(match)[0]
    moves = selectors.legal_moves_for(match, players[seat].user)["moves"]
    discard = next(move for move in moves if move["type"] == "discard")
    services.submit_move(match_id=match_id, user=players[seat].user, move=discard)
    return seat


def test_a_pile_draw_is_pushed_with_its_card_to_the_drawer_only(server, players):
    two = players[:2]
    match_id = start_match("han", two)
    drawer = _discard_first(match_id, two)

    async def scenario():
        subscribers = {
            drawer: Subscriber(server, token=two[drawer].token),
            1 - drawer: Subscriber(server, token=two[1 - drawer].token),
            None: Subscriber(server),
        }
        try:
            for subscriber in subscribers.values():
                assert (await subscriber.open())["type"] == "connection_ack"
                await subscriber.subscribe(UPDATES, {"id": str(match_id)})
                first = await subscriber.receive()
                assert first["payload"]["data"]["matchUpdates"]["ply"] == 1
            status, body = await asyncio.to_thread(
                http_json, server, "POST", f"/api/v1/matches/{match_id}/moves/",
                {"move": {"type": "draw", "from": "pile"}, "expected_ply": 1},
                two[drawer].token,
            )
            assert status == 201, body
            drawn = next(e for e in body["events"] if e["type"] == "drew")["card"]
            for reader, subscriber in subscribers.items():
                update = (await subscriber.receive())["payload"]["data"]["matchUpdates"]
                drew = [event for move in update["moves"] for event in move["events"]
                        if event["type"] == "drew"]
                assert len(drew) == 1 and drew[0]["from"] == "pile"
                if reader == drawer:
                    assert drew[0]["card"] == drawn
                else:
                    assert "card" not in drew[0], reader
        finally:
            for subscriber in subscribers.values():
                await subscriber.close()

    asyncio.run(scenario())
