"""How many SQL statements a move and a poll cost, so the count cannot creep up unseen.

Issue 14 measured 7 statements per REST move (the match read again after the commit; 8
once the clocks' incidents joined the answer) and 3 per poll; every statement is a round
trip to PostgreSQL on the hottest path of the service. The budgets below are the counts of
the lean path: if a change needs more, raise the number here on purpose, in the same
commit, and say why.

Savepoints are not counted: in these tests the whole test runs inside a transaction, so
each ``atomic`` block becomes a SAVEPOINT that production does not send.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.matches import services as match_services
from tests.games.support import TEST_SEED, match_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("webhook_types_known")]

#: token + user (one join), the match's lock, then the match with its creator, seats
#: (+ users) and incidents in one statement (games/matches/rows.py; the two share one round
#: trip), then one statement for the log entry, the match's update and the "your turn"
#: feed event of the next person to act (games/matches/writes.py; the event is stored in the
#: move's transaction so that it exists exactly when the move does, issue 13). Before
#: issue 14's lean path: 10 statements; then 7, then 6.
MOVE_BUDGET = 4
#: token + user, the match with its creator, seats (+ users) and incidents
POLL_BUDGET = 2
#: token + user, the match with its creator, seats (+ users) and incidents
LEGAL_MOVES_BUDGET = 2
#: token + user, the match with creator, seats and incidents, the moves since the given ply
EVENTS_BUDGET = 3
#: token + user, one narrow read of the match's version (no state JSON)
NOT_MODIFIED_BUDGET = 2
#: a match whose seats the request fills (the creator and a bot): token + user, the match
#: (dealt already), its seats in one statement, the creator's two feed events ("match
#: started", "your turn"), then the match with its seats for the answer. Before session
#: 11: 11 (the match written open, read back with its seats twice, then updated).
CREATE_FULL_MATCH_BUDGET = 6


def _statements(context: CaptureQueriesContext) -> list[str]:
    return [
        query["sql"] for query in context.captured_queries
        if not query["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT", "ROLLBACK TO"))
    ]


def _count(call) -> tuple[object, list[str]]:
    with CaptureQueriesContext(connection) as context:
        result = call()
    return result, _statements(context)


@pytest.fixture
def han_match(make_user, make_auth_client):
    """A started two-person Han match: {seat: client}."""
    first, second = make_user(), make_user()
    match = match_services.create_match(user=first, game="han", players=2, seed=TEST_SEED)
    match_services.join_match(user=second, match_id=match.pk)
    return match.pk, {0: make_auth_client(first), 1: make_auth_client(second)}


def _mover(match_id: int, clients: dict):
    detail = clients[0].get(match_url(match_id)).json()
    seat = detail["to_act"][0]
    return clients[seat], clients[1 - seat]


def test_a_rest_move_stays_within_its_query_budget(han_match):
    match_id, clients = han_match
    for _ in range(3):  # several moves: the count does not grow with the log
        mover, _other = _mover(match_id, clients)
        legal = mover.get(match_url(match_id, "legal-moves/")).json()
        body = {"move": legal["moves"][0], "expected_ply": legal["ply"]}
        response, statements = _count(
            lambda body=body, mover=mover: mover.post(match_url(match_id, "moves/"), body,
                                                      format="json"))
        assert response.status_code == 201, response.content
        assert len(statements) <= MOVE_BUDGET, "\n".join(statements)
        # The answer is built from what the service holds: the match's state is read once
        # (after its lock), not again after the commit.
        assert sum(sql.startswith("SELECT") and '"state"' in sql
                   for sql in statements) == 1, statements
        assert response.json()["match"]["ply"] == legal["ply"] + 1


def test_creating_a_full_match_stays_within_its_query_budget(make_user, make_auth_client):
    client = make_auth_client(make_user())
    body = {"game": "han", "players": 2, "bot_seats": {"1": "greedy"}}
    response, statements = _count(lambda: client.post("/api/v1/matches/", body, format="json"))
    assert response.status_code == 201, response.content
    assert response.json()["status"] == "active"
    assert len(statements) <= CREATE_FULL_MATCH_BUDGET, "\n".join(statements)


def test_polls_stay_within_their_query_budget(han_match):
    match_id, clients = han_match
    mover, other = _mover(match_id, clients)
    for client in (mover, other):
        for suffix, budget in (("", POLL_BUDGET), ("legal-moves/", LEGAL_MOVES_BUDGET),
                               ("events/?since=0", EVENTS_BUDGET)):
            response, statements = _count(
                lambda client=client, suffix=suffix: client.get(match_url(match_id, suffix)))
            assert response.status_code == 200, response.content
            assert len(statements) <= budget, (suffix, statements)


GRAPHQL_SUBMIT = """
mutation($id: ID!, $move: JSON!, $ply: Int) {
  submitMove(matchId: $id, move: $move, expectedPly: $ply) {
    errors { code }
    match { ply status toAct yourSeat seats { position kind user } view }
    move { ply seat }
  }
}
"""


def test_a_graphql_move_stays_within_the_rest_budget(han_match):
    match_id, clients = han_match
    mover, _other = _mover(match_id, clients)
    legal = mover.get(match_url(match_id, "legal-moves/")).json()
    variables = {"id": str(match_id), "move": legal["moves"][0], "ply": legal["ply"]}
    response, statements = _count(lambda: mover.post(
        "/graphql/", {"query": GRAPHQL_SUBMIT, "variables": variables}, format="json"))
    body = response.json()
    assert body["data"]["submitMove"]["errors"] == [], body
    assert body["data"]["submitMove"]["match"]["ply"] == legal["ply"] + 1
    assert len(statements) <= MOVE_BUDGET, "\n".join(statements)
