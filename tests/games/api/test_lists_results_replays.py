"""Match lists a player's client can use (``to_act``, ``my_turn``), unknown query
parameters refused on every endpoint, complete results and replays."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from games.matches import scoring
from games.matches import services as match_services
from tests.games.graphql.support import gql
from tests.games.support import API, assert_api_error, match_url, play_human_turns

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_han_matches(make_user, make_auth_client):
    """ann and bob in two active Han duels; seat 0 (ann in the first, bob in the second)
    is to act in both."""
    ann, bob = make_user(), make_user()
    first = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=first.pk)
    second = match_services.create_match(user=bob, game="han", players=2)
    match_services.join_match(user=ann, match_id=second.pk)
    return ann, bob, first, second, make_auth_client(ann), make_auth_client(bob)


def _ids(client, query):
    body = client.get(f"{API}/matches/?{query}").json()
    return [row["id"] for row in body["results"]], body


def test_rows_carry_to_act_and_my_turn_filters(two_han_matches, api_client):
    ann, bob, first, second, ann_client, bob_client = two_han_matches
    ids, body = _ids(ann_client, "")
    assert {row["id"]: row["to_act"] for row in body["results"]} == {first.pk: [0],
                                                                    second.pk: [0]}
    assert _ids(ann_client, "my_turn=true")[0] == [first.pk]
    assert _ids(bob_client, "my_turn=true")[0] == [second.pk]
    assert _ids(ann_client, "my_turn=false")[0] == [second.pk]
    assert _ids(api_client, "my_turn=true")[0] == []  # anonymous: never your turn
    assert_api_error(ann_client.get(f"{API}/matches/?my_turn=maybe"), 400, "invalid_request")
    # a discard passes ann's turn to its draws, then to bob: the lists follow each move
    move = next(move for move in ann_client.get(match_url(first.pk, "legal-moves/")).json()[
        "moves"] if move["type"] == "discard")
    while True:
        ann_client.post(match_url(first.pk, "moves/"), {"move": move}, format="json")
        detail = ann_client.get(match_url(first.pk)).json()
        assert (first.pk in _ids(ann_client, "my_turn=true")[0]) == (0 in detail["to_act"])
        if detail["to_act"] != [0]:
            break
        move = ann_client.get(match_url(first.pk, "legal-moves/")).json()["moves"][0]
    assert _ids(bob_client, "my_turn=true")[0] == [second.pk, first.pk]


def test_graphql_lists_carry_to_act_and_filter_my_turn(two_han_matches):
    ann, bob, first, second, *_ = two_han_matches
    token = Token.objects.get_or_create(user=ann)[0].key
    query = """query($t: Boolean) { matches(myTurn: $t) { results { id toAct } } }"""
    rows = gql(query, {"t": True}, token=token)["data"]["matches"]["results"]
    assert rows == [{"id": str(first.pk), "toAct": [0]}]
    rows = gql(query, {"t": False}, token=token)["data"]["matches"]["results"]
    assert [row["id"] for row in rows] == [str(second.pk)]


@pytest.mark.parametrize("path", [
    "games/?x=1", "games/han/?x=1", "matches/?stauts=active", "matches/{id}/?x=1",
    "matches/{id}/legal-moves/?x=1", "matches/{id}/moves/?since=0",
    "matches/{id}/replay/?plie=1", "matches/{id}/result/?x=1",
    "matches/{id}/events/?sinse=0", "me?x=1", "health?verbose=1",
    # the capabilities that grew beside the match API answer the same way
    "matches/{id}/record/?x=1", "matches/{id}/lobby/?x=1",
    "users/{user}/?x=1", "users/{user}/ratings/?gmae=han", "users/{user}/records/?x=1",
    "leaderboard/han/?page=2", "invitations/?stat=pending", "quick-match/?x=1",
])
def test_an_unknown_query_parameter_is_a_400_naming_it(two_han_matches, path):
    ann, _, first, _, ann_client, _ = two_han_matches
    path = path.replace("{id}", str(first.pk)).replace("{user}", ann.username)
    response = ann_client.get(f"{API}/{path}")
    error = assert_api_error(response, 400, "invalid_request")
    name = path.split("?")[1].split("=")[0]
    assert name in error["message"] and error["details"]["unknown"] == [name]


def test_an_unknown_query_parameter_on_a_post_writes_nothing(two_han_matches):
    _, _, first, _, ann_client, _ = two_han_matches
    move = ann_client.get(match_url(first.pk, "legal-moves/")).json()["moves"][0]
    response = ann_client.post(match_url(first.pk, "moves/?dry_run=1"), {"move": move},
                               format="json")
    assert_api_error(response, 400, "invalid_request")
    first.refresh_from_db()
    assert first.ply == 0


@pytest.fixture
def finished_han(make_user, make_auth_client):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    clients = {0: make_auth_client(ann), 1: make_auth_client(bob)}
    play_human_turns(clients, match.pk)
    scoring.score_match(match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "finished"
    return match, clients


def test_the_result_is_complete(finished_han, api_client):
    match, _ = finished_han
    body = api_client.get(match_url(match.pk, "result/")).json()
    assert body["end_reason"] in {"pile_depleted", "no_placement"}
    assert body["tie_break_keys"] == ["pieces_left"]
    assert body["ranks"] == [row["rank"] for row in body["results"]]
    for row in body["results"]:
        assert isinstance(row["tie_break"]["pieces_left"], int)
        assert {"provinces", "alliances", "roads", "ports", "total"} <= set(row["breakdown"])
        assert row["breakdown"]["total"] == row["score"]
    assert body["winners"] == [row["seat"] for row in body["results"] if row["rank"] == 1]


def test_replay_defaults_to_the_latest_ply_with_the_move_that_led_there(make_user,
                                                                          make_auth_client):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    client = make_auth_client(ann)
    assert client.get(match_url(match.pk, "replay/")).json()["move"] is None  # ply 0
    move = client.get(match_url(match.pk, "legal-moves/")).json()["moves"][0]
    client.post(match_url(match.pk, "moves/"), {"move": move}, format="json")
    body = client.get(match_url(match.pk, "replay/")).json()
    assert body["ply"] == 1 and body["ended"] is False
    assert body["move"]["move"] == move and body["move"]["seat"] == 0
    assert body["move"]["events"][0]["type"] in {"placed", "discarded"}
    assert "state" not in body and "views" not in body
    assert body["view"] == client.get(match_url(match.pk)).json()["view"]


def test_replay_after_the_end_is_all_seeing(finished_han, api_client):
    match, _ = finished_han
    body = api_client.get(match_url(match.pk, "replay/")).json()
    assert body["ended"] is True and body["ply"] == match.ply and body["seat"] is None
    assert len(body["views"]) == 2
    assert [view["hand"] for view in body["views"]] == body["state"]["hands"]
    query = """query($id: ID!) { replay(matchId: $id) { ply ended views move { ply } } }"""
    data = gql(query, {"id": match.pk})["data"]["replay"]
    assert data["ply"] == match.ply and data["ended"] and len(data["views"]) == 2
    assert data["move"]["ply"] == match.ply - 1
