"""Clocks, resignation and reclaim over REST: time controls at creation and in the
catalogue, clocks in match payloads and lists, resign and its refusals (each a 4xx that
writes nothing), and abort kept for the creator before the first move and for admins."""

from __future__ import annotations

import pytest

from games.clocks import services as clock_services
from games.clocks.errors import InvalidTime
from games.matches import scoring
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match
from tests.games.api.test_query_budget import MOVE_BUDGET, _count
from tests.games.support import API, assert_api_error, match_url, row_counts

pytestmark = pytest.mark.django_db


def _writes():
    return (*row_counts(), Incident.objects.count(),
            tuple(Match.objects.order_by("pk").values_list("status", "ply", "clocks")))


@pytest.fixture
def duel(make_user, make_auth_client):
    ann, bob = make_user(), make_user()
    ann_client, bob_client = make_auth_client(ann), make_auth_client(bob)
    response = ann_client.post(f"{API}/matches/", {
        "game": "hansa", "players": 2,
        "time_control": {"preset": "realtime-10+30", "timeout_policy": "forfeit"},
    }, format="json")
    assert response.status_code == 201, response.json()
    match_id = response.json()["id"]
    assert bob_client.post(match_url(match_id, "join/"), {}, format="json").status_code == 200
    return {"id": match_id, "ann": ann, "bob": bob, "ann_client": ann_client,
            "bob_client": bob_client}


def test_the_catalogue_lists_the_time_control_presets(api_client):
    entry = api_client.get(f"{API}/games/han/").json()
    presets = {row["preset"]: row for row in entry["time_controls"]}
    assert presets["realtime-3+10"] == {"preset": "realtime-3+10", "kind": "realtime",
                                        "initial_seconds": 180, "increment_seconds": 10}
    assert presets["turn-based-3d"]["days_per_move"] == 3 and "none" in presets


def test_clocks_show_in_the_match_and_in_the_list(duel, api_client):
    detail = api_client.get(match_url(duel["id"])).json()
    assert detail["time_control"]["timeout_policy"] == "forfeit"
    assert [clock["running"] for clock in detail["clocks"]] == [True, True]
    assert all(clock["deadline"] and 0 < clock["remaining_ms"] <= 600_000
               for clock in detail["clocks"])
    listed = api_client.get(f"{API}/matches/").json()["results"][0]
    assert listed["id"] == duel["id"] and len(listed["clocks"]) == 2
    assert detail["incidents"] == []


def test_a_match_without_a_clock_says_so(auth_client):
    body = auth_client.post(f"{API}/matches/", {"game": "han", "players": 3},
                            format="json").json()
    assert body["time_control"] == {"preset": "none", "kind": "none"} and body["clocks"] == []


@pytest.mark.parametrize("time_control, code", [
    ("blitz", "unknown_preset"),
    ({"preset": "realtime-99+0"}, "unknown_preset"),
    ({"kind": "realtime", "initial_seconds": -60, "increment_seconds": 5},
     "invalid_time_control"),
    ({"kind": "turn_based", "days_per_move": -1}, "invalid_time_control"),
    ({"preset": "turn-based-1d", "timeout_policy": "explode"}, "invalid_time_control"),
    ([1, 2], "invalid_time_control"),
])
def test_a_bad_time_control_is_a_400_and_creates_nothing(auth_client, time_control, code):
    before = _writes()
    response = auth_client.post(f"{API}/matches/", {"game": "han", "players": 2,
                                                   "time_control": time_control},
                                format="json")
    assert_api_error(response, 400, code)
    assert _writes() == before


def test_resign_ends_a_two_player_match_and_is_shown_in_the_result(duel, api_client):
    response = duel["bob_client"].post(match_url(duel["id"], "resign/"), {}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "scoring"  # no worker in this test: scoring is enqueued
    assert [(row["seat"], row["kind"]) for row in body["incidents"]] == [(1, "resign")]
    scoring.score_match(match_id=duel["id"])
    result = api_client.get(match_url(duel["id"], "result/")).json()
    assert result["winners"] == [0]
    assert result["forfeits"] == [{"seat": 1, "kind": "resign", "ply": 0}]
    assert result["timeouts"] == []
    assert {row["seat"]: row["rank"] for row in result["results"]} == {0: 1, 1: 2}


@pytest.mark.parametrize("who, body, status, code", [
    ("bob", {"seat": 0}, 403, "not_your_seat"),
    ("bob", {"seat": 5}, 400, "invalid_seat"),
    ("bob", {"seat": "x"}, 400, "invalid_seat"),
    ("bob", {"seats": 1}, 400, "invalid_input"),
    ("stranger", {}, 403, "not_seated"),
    (None, {}, 401, "not_authenticated"),
])
def test_bad_resignations_are_refused_and_write_nothing(
    duel, make_user, make_auth_client, api_client, who, body, status, code
):
    client = {"bob": duel["bob_client"], None: api_client}.get(who)
    if who == "stranger":
        client = make_auth_client(make_user())
    before = _writes()
    assert_api_error(client.post(match_url(duel["id"], "resign/"), body, format="json"),
                     status, code)
    assert _writes() == before


def test_resigning_twice_is_a_409_that_writes_nothing(make_user, make_auth_client):
    ann, bob, cat = make_user(), make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=3)
    match_services.join_match(user=bob, match_id=match.pk)
    match_services.join_match(user=cat, match_id=match.pk)
    client = make_auth_client(bob)
    assert client.post(match_url(match.pk, "resign/"), {}, format="json").status_code == 200
    before = _writes()
    assert_api_error(client.post(match_url(match.pk, "resign/"), {}, format="json"),
                     409, "already_resigned")
    assert_api_error(client.post(match_url(match.pk, "reclaim/"), {}, format="json"),
                     409, "nothing_to_reclaim")  # a resigned seat is not given back
    assert _writes() == before


def test_abort_is_the_creators_before_the_first_move_then_an_admins(
    duel, make_user, make_auth_client
):
    hansa_keep = {"move": None}
    legal = duel["ann_client"].get(match_url(duel["id"], "legal-moves/")).json()
    hansa_keep["move"] = legal["moves"][0]
    assert duel["ann_client"].post(match_url(duel["id"], "moves/"), hansa_keep,
                                   format="json").status_code == 201
    before = _writes()
    assert_api_error(duel["ann_client"].post(match_url(duel["id"], "abort/"), {},
                                             format="json"), 403, "forbidden")
    assert _writes() == before
    admin = make_auth_client(make_user(is_staff=True, is_superuser=True))
    assert admin.post(match_url(duel["id"], "abort/"), {}, format="json").status_code == 200

    fresh = duel["ann_client"].post(f"{API}/matches/", {"game": "han", "players": 3},
                                    format="json").json()
    assert duel["ann_client"].post(match_url(fresh["id"], "abort/"), {},
                                   format="json").status_code == 200


def test_polling_shows_the_clocks_and_the_incidents(duel, api_client):
    events = api_client.get(match_url(duel["id"], "events/?since=0")).json()
    assert [clock["seat"] for clock in events["clocks"]] == [0, 1]
    assert all(clock["running"] and clock["deadline"] for clock in events["clocks"])
    assert events["incidents"] == []
    duel["bob_client"].post(match_url(duel["id"], "resign/"), {}, format="json")
    events = api_client.get(match_url(duel["id"], "events/?since=0")).json()
    assert [(row["seat"], row["kind"]) for row in events["incidents"]] == [(1, "resign")]


def test_a_move_on_the_clock_costs_no_more_sql_than_one_without(duel):
    legal = duel["ann_client"].get(match_url(duel["id"], "legal-moves/")).json()
    response, statements = _count(lambda: duel["ann_client"].post(
        match_url(duel["id"], "moves/"), {"move": legal["moves"][0]}, format="json"))
    assert response.status_code == 201
    assert len(statements) <= MOVE_BUDGET, "\n".join(statements)  # clocks ride on the row
    clocks = response.json()["match"]["clocks"]
    assert clocks[0]["running"] is False and clocks[1]["running"] is True


def test_adding_negative_or_zero_time_is_refused_and_writes_nothing(duel, make_user):
    admin = make_user(is_staff=True, is_superuser=True)
    before = _writes()
    for seconds in (-30, 0, "60", 10**9):
        with pytest.raises(InvalidTime):
            clock_services.add_time(user=admin, match_id=duel["id"], position=0,
                                    seconds=seconds)
    assert _writes() == before
