"""Real threads, real PostgreSQL: two clients at the same ply, duplicated bot tasks."""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match, Move
from games.matches.tasks import play_bot_turn
from tests.games.support import match_url

pytestmark = pytest.mark.django_db(transaction=True)


def _race(*jobs):
    """Run ``jobs`` in threads released together; return their results in order."""
    barrier = threading.Barrier(len(jobs))
    results: list = [None] * len(jobs)

    def run(index, job):
        try:
            barrier.wait(timeout=10)
            results[index] = job()
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i, job)) for i, job in enumerate(jobs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def _client(token_user, make_auth_client) -> APIClient:
    return make_auth_client(token_user)


def _assert_log_gapless(match_id):
    plies = list(Move.objects.filter(match_id=match_id).order_by("ply")
                 .values_list("ply", flat=True))
    assert plies == list(range(len(plies)))
    assert Match.objects.get(pk=match_id).ply == len(plies)


def test_two_simultaneous_choosers_at_the_same_ply_both_land(make_user, make_auth_client):
    # Hansa opens with a simultaneous choice: both seats owe a move at ply 0, and neither
    # choice changes the other's decision, so both land, one after the other under the
    # match lock (docs/api.md, expected_ply). Racing turns are below.
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    clients = [make_auth_client(ann), make_auth_client(bob)]
    legal = [client.get(match_url(match.pk, "legal-moves/")).json() for client in clients]
    assert legal[0]["ply"] == legal[1]["ply"] == 0 and legal[0]["moves"] and legal[1]["moves"]

    def submit(seat):
        return lambda: clients[seat].post(
            match_url(match.pk, "moves/"),
            {"move": legal[seat]["moves"][0], "expected_ply": 0},
            format="json",
        )

    responses = _race(submit(0), submit(1))
    assert sorted(response.status_code for response in responses) == [201, 201]
    assert sorted(response.json()["ply"] for response in responses) == [0, 1]
    assert Move.objects.filter(match=match).count() == 2
    _assert_log_gapless(match.pk)


def test_one_seat_racing_itself_lands_once_per_ply(make_user, make_auth_client):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    clients = {0: make_auth_client(ann), 1: make_auth_client(bob)}
    for _round in range(4):
        detail = clients[0].get(match_url(match.pk)).json()
        seat = detail["to_act"][0]
        legal = clients[seat].get(match_url(match.pk, "legal-moves/")).json()
        moves = legal["moves"]
        chosen = [moves[0], moves[-1]]

        def submit(move, client=clients[seat], ply=legal["ply"]):
            return lambda: client.post(match_url(match.pk, "moves/"),
                                       {"move": move, "expected_ply": ply}, format="json")

        responses = _race(submit(chosen[0]), submit(chosen[1]))
        assert sorted(r.status_code for r in responses) == [201, 409]
        assert {r.json().get("error", {}).get("code") for r in responses} == {None, "stale_ply"}
    _assert_log_gapless(match.pk)
    assert Move.objects.filter(match=match).count() == 4


def test_a_duplicated_bot_task_plays_once(make_user):
    # Not eager: the on-commit enqueue goes to the test queue nobody consumes, and this
    # test delivers the same task twice, at once, by hand.
    ann = make_user()
    match = match_services.create_match(user=ann, game="han", players=2, bot_seats={1: "greedy"})
    while 1 not in selectors.to_act_of(selectors.get_match(match.pk)):
        # let the person play until the bot owes the decision
        legal = selectors.legal_moves_for(selectors.get_match(match.pk), ann)["moves"]
        services.submit_move(match_id=match.pk, user=ann, move=legal[0])
    match.refresh_from_db()
    ply = match.ply
    results = _race(lambda: play_bot_turn(match.pk, 1, ply),
                    lambda: play_bot_turn(match.pk, 1, ply))
    assert sorted(results) == [False, True]
    # the winner played the bot's whole turn (games/matches/bot_moves.py), once: the bot's
    # moves since then are one turn's, and the person owes the next move
    match.refresh_from_db()
    assert set(Move.objects.filter(match=match, ply__gte=ply).values_list("seat", flat=True)) \
        == {1}
    assert match.status != "active" or 1 not in match.to_act
    # ...and a third, late copy of the same task is a no-op too.
    assert play_bot_turn(match.pk, 1, ply) is False
    _assert_log_gapless(match.pk)


def test_three_people_racing_for_the_last_two_seats(make_user, make_auth_client):
    ann = make_user()
    match = match_services.create_match(user=ann, game="hansa", players=3)
    racers = [make_auth_client(make_user()) for _ in range(3)]
    responses = _race(*[
        (lambda client=client: client.post(match_url(match.pk, "join/"), {}, format="json"))
        for client in racers
    ])
    codes = sorted(response.status_code for response in responses)
    assert codes == [200, 200, 409]
    loser = next(response for response in responses if response.status_code == 409)
    assert loser.json()["error"]["code"] == "match_full"
    match.refresh_from_db()
    assert match.status == "active"
    assert sorted(match.seats.values_list("position", flat=True)) == [0, 1, 2]
