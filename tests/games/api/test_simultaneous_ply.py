"""expected_ply in Hansa's simultaneous phases (ruling Q6): a seat that owes a choice is
not refused as stale because another seat's choice landed after it looked; a ply from
before its decision became due, or one from the future, still is."""

from __future__ import annotations

import pytest

from games.matches import services as match_services
from tests.games.support import assert_api_error, match_url

pytestmark = pytest.mark.django_db


@pytest.fixture
def keep_phase(make_user, make_auth_client):
    users = [make_user() for _ in range(3)]
    match = match_services.create_match(user=users[0], game="hansa", players=3)
    for other in users[1:]:
        match_services.join_match(user=other, match_id=match.pk)
    clients = [make_auth_client(user) for user in users]
    return match, clients


def _legal(client, match):
    return client.get(match_url(match.pk, "legal-moves/")).json()


def test_the_second_chooser_is_not_stale(keep_phase):
    match, clients = keep_phase
    shown = [_legal(client, match) for client in clients]  # every UI shows "keep 2" at ply 0
    assert {body["ply"] for body in shown} == {0} and shown[0]["to_act"] == [0, 1, 2]
    for seat in (2, 0, 1):
        response = clients[seat].post(
            match_url(match.pk, "moves/"),
            {"move": shown[seat]["moves"][0], "expected_ply": 0}, format="json")
        assert response.status_code == 201, response.json()
    match.refresh_from_db()
    assert match.ply == 3


def test_a_ply_from_before_the_decision_or_from_the_future_is_stale(keep_phase):
    match, clients = keep_phase
    for seat in (0, 1, 2):  # the keep phase resolves; the turns begin at ply 3
        move = _legal(clients[seat], match)["moves"][0]
        clients[seat].post(match_url(match.pk, "moves/"), {"move": move}, format="json")
    mover = _legal(clients[0], match)["to_act"][0]
    move = _legal(clients[mover], match)["moves"][0]
    for stale in (2, 4):
        assert_api_error(clients[mover].post(match_url(match.pk, "moves/"),
                                             {"move": move, "expected_ply": stale},
                                             format="json"), 409, "stale_ply")
    response = clients[mover].post(match_url(match.pk, "moves/"),
                                   {"move": move, "expected_ply": 3}, format="json")
    assert response.status_code == 201


def test_a_seat_that_has_chosen_is_not_to_act(keep_phase):
    match, clients = keep_phase
    move = _legal(clients[0], match)["moves"][0]
    clients[0].post(match_url(match.pk, "moves/"), {"move": move, "expected_ply": 0},
                    format="json")
    assert_api_error(clients[0].post(match_url(match.pk, "moves/"),
                                     {"move": move, "expected_ply": 0}, format="json"),
                     409, "stale_ply")
    assert_api_error(clients[0].post(match_url(match.pk, "moves/"),
                                     {"move": move, "expected_ply": 1}, format="json"),
                     409, "not_your_turn")

