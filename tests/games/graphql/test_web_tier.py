"""The production web tier (scripts/serve_web.sh: uvicorn, several processes) run as two
instances on two ports, sharing only PostgreSQL and Redis, as two machines would:

- a subscriber connected to one instance hears a move made through the other (the Redis
  channel layer carries the update across processes);
- twenty clients submitting at the same ply, spread over both instances, land exactly one
  move: the row lock and expected_ply hold across processes, not just threads.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.matches.models import Match, Move
from rules import get_engine
from tests.games.graphql.asgi_server import Subscriber, http_json, running_web_tier
from tests.games.graphql.support import start_match

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

UPDATES = """
subscription Updates($id: ID!) { matchUpdates(matchId: $id) { matchId ply status toAct } }
"""


@pytest.fixture(scope="module")
def two_instances(django_db_setup, django_db_blocker):
    """Started once for this module (four processes take a while to boot)."""
    with django_db_blocker.unblock():
        with running_web_tier(processes=2) as first, running_web_tier(processes=2) as second:
            yield first, second


def _first_legal_move(match_id: int) -> tuple[int, dict, int]:
    match = Match.objects.get(pk=match_id)
    engine = get_engine(match.game)
    state = engine.from_json(match.state)
    seat = engine.to_act(state)[0]
    return seat, engine.legal_moves(state, seat)[0], match.ply


def test_a_subscriber_on_one_instance_hears_a_move_made_on_the_other(two_instances,
                                                                      players):
    first, second = two_instances
    match_id = start_match("han", players[:2])
    seat, move, ply = _first_legal_move(match_id)

    async def scenario():
        subscriber = Subscriber(first, token=players[1 - seat].token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(UPDATES, {"id": str(match_id)})
            initial = await subscriber.receive()
            assert initial["payload"]["data"]["matchUpdates"]["ply"] == ply
            status, body = await asyncio.to_thread(
                http_json, second, "POST", f"/api/v1/matches/{match_id}/moves/",
                {"move": move, "expected_ply": ply}, players[seat].token)
            assert status == 201, body
            pushed = await subscriber.receive()
            assert pushed["payload"]["data"]["matchUpdates"]["ply"] == ply + 1
        finally:
            await subscriber.close()

    asyncio.run(scenario())


def test_twenty_submits_at_one_ply_across_two_instances_land_exactly_once(two_instances,
                                                                          players):
    match_id = start_match("han", players[:2])
    seat, move, ply = _first_legal_move(match_id)
    token = players[seat].token

    def submit(index: int) -> tuple[int, dict]:
        address = two_instances[index % 2]
        return http_json(address, "POST", f"/api/v1/matches/{match_id}/moves/",
                         {"move": move, "expected_ply": ply}, token)

    with ThreadPoolExecutor(max_workers=20) as pool:
        answers = list(pool.map(submit, range(20)))
    landed = [body for status, body in answers if status == 201]
    refused = [body["error"]["code"] for status, body in answers if status != 201]
    assert len(landed) == 1, answers
    assert set(refused) <= {"stale_ply", "not_your_turn"} and len(refused) == 19, refused
    assert list(Move.objects.filter(match_id=match_id).values_list("ply", flat=True)) == [ply]
    assert Match.objects.get(pk=match_id).ply == ply + 1
