"""Clocks, resignation and reclaim over GraphQL: the same behaviour and codes as REST
(tests/games/api/test_clocks_api.py), and clocks in the matchUpdates pushes."""

from __future__ import annotations

import asyncio

import pytest
from django.db import connection

from games.clocks import services as clock_services
from games.matches import scoring
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match
from tests.games.graphql.asgi_server import Subscriber, channel_layers_setting, running_daphne
from tests.games.graphql.support import gql, payload_codes, snapshot, start_match

pytestmark = pytest.mark.django_db

CLOCK_FIELDS = ("id status timeControl clocks { seat remainingMs running deadline } "
                "incidents { ply seat kind botKind } "
                "result { winners forfeits { seat kind ply } timeouts { seat } }")
ERRORS = "errors { code message field details }"
CREATE = f"""
mutation Create($timeControl: JSON) {{
  createMatch(game: "hansa", players: 2, timeControl: $timeControl) {{
    match {{ {CLOCK_FIELDS} }} {ERRORS}
  }}
}}
"""
RESIGN = f"""
mutation Resign($id: ID!, $seat: Int) {{
  resignMatch(matchId: $id, seat: $seat) {{ match {{ {CLOCK_FIELDS} }} {ERRORS} }}
}}
"""
RECLAIM = f"""
mutation Reclaim($id: ID!) {{ reclaimSeat(matchId: $id) {{ match {{ id }} {ERRORS} }} }}
"""


def test_the_catalogue_lists_time_controls():
    games = gql("{ games { game timeControls } }")["data"]["games"]
    assert all("realtime-10+30" in [row["preset"] for row in game["timeControls"]]
               for game in games)


def test_create_with_a_time_control_shows_the_clocks(players):
    payload = gql(CREATE, {"timeControl": "realtime-3+10"}, token=players[0].token)
    match = payload["data"]["createMatch"]["match"]
    assert match["timeControl"]["initial_seconds"] == 180 and match["clocks"] == []  # open
    match_services.join_match(user=players[1].user, match_id=int(match["id"]))
    body = gql(f'{{ match(id: "{match["id"]}") {{ {CLOCK_FIELDS} }} }}')["data"]["match"]
    assert [clock["running"] for clock in body["clocks"]] == [True, True]
    assert all(clock["deadline"] for clock in body["clocks"])


@pytest.mark.parametrize("time_control, code", [
    ("bullet", "unknown_preset"),
    ({"kind": "realtime", "initial_seconds": -1, "increment_seconds": 0},
     "invalid_time_control"),
])
def test_a_bad_time_control_is_a_typed_error_and_creates_nothing(players, time_control, code):
    before = Match.objects.count()
    payload = gql(CREATE, {"timeControl": time_control},
                  token=players[0].token)["data"]["createMatch"]
    assert payload["match"] is None and payload_codes(payload) == [code]
    assert payload["errors"][0]["field"] == "timeControl"
    assert Match.objects.count() == before


def test_resign_ends_a_duel_and_refusals_write_nothing(players):
    match_id = start_match("hansa", players[:2])
    before = snapshot(match_id)
    other = gql(RESIGN, {"id": match_id, "seat": 0},
                token=players[1].token)["data"]["resignMatch"]
    assert payload_codes(other) == ["not_your_seat"] and other["errors"][0]["field"] == "seat"
    stranger = gql(RESIGN, {"id": match_id}, token=players[2].token)["data"]["resignMatch"]
    assert payload_codes(stranger) == ["not_seated"]
    assert payload_codes(gql(RECLAIM, {"id": match_id},
                             token=players[1].token)["data"]["reclaimSeat"]) == ["already_seated"]
    assert snapshot(match_id) == before and not Incident.objects.filter(match_id=match_id)

    done = gql(RESIGN, {"id": match_id, "seat": 1}, token=players[1].token)["data"]
    assert done["resignMatch"]["errors"] == []
    assert done["resignMatch"]["match"]["incidents"] == [
        {"ply": 0, "seat": 1, "kind": "resign", "botKind": "greedy"}]
    twice = gql(RESIGN, {"id": match_id}, token=players[1].token)["data"]["resignMatch"]
    assert payload_codes(twice) == ["already_resigned"]
    scoring.score_match(match_id=match_id)  # no worker here
    result = gql(f'{{ match(id: "{match_id}") {{ {CLOCK_FIELDS} }} }}')["data"]["match"]
    assert result["result"]["winners"] == [0]
    assert result["result"]["forfeits"] == [{"seat": 1, "kind": "resign", "ply": 0}]


@pytest.mark.django_db(transaction=True)
def test_a_push_carries_the_clocks_and_the_resignation(settings, players):
    settings.CHANNEL_LAYERS = channel_layers_setting()
    match = match_services.create_match(user=players[0].user, game="hansa", players=2,
                                        time_control="realtime-10+30")
    match_services.join_match(user=players[1].user, match_id=match.pk)
    query = ("subscription S($id: ID!) { matchUpdates(matchId: $id) { status "
             "clocks { seat running remainingMs deadline } incidents { seat kind } "
             "result { forfeits { seat kind } } } }")

    async def scenario(address):
        subscriber = Subscriber(address, token=players[0].token)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(query, {"id": str(match.pk)})
            first = (await subscriber.receive())["payload"]["data"]["matchUpdates"]
            assert [clock["running"] for clock in first["clocks"]] == [True, True]
            await asyncio.to_thread(_resign_and_score, players[1].user, match.pk)
            pushes = []
            while True:
                message = await subscriber.receive()
                if message["type"] == "complete":
                    break
                pushes.append(message["payload"]["data"]["matchUpdates"])
            last = pushes[-1]
            assert last["status"] == "FINISHED"
            assert last["result"]["forfeits"] == [{"seat": 1, "kind": "resign"}]
            assert last["incidents"] == [{"seat": 1, "kind": "resign"}]
            assert not any(clock["running"] for clock in last["clocks"])
        finally:
            await subscriber.close()

    with running_daphne() as address:
        asyncio.run(scenario(address))


def _resign_and_score(user, match_id):
    try:
        clock_services.resign(user=user, match_id=match_id)
        scoring.score_match(match_id=match_id)  # what the worker would do
    finally:
        connection.close()  # this thread's own connection


def test_a_player_taken_over_sees_the_seat_to_reclaim_and_takes_it_back(players, make_user):
    match_id = start_match("hansa", players[:2])
    admin = make_user(is_staff=True, is_superuser=True)
    clock_services.hand_seat_to_bot(user=admin, match_id=match_id, position=1,
                                    bot_kind="random")
    query = f'{{ match(id: "{match_id}") {{ yourSeat reclaimableSeat }} }}'
    assert gql(query, token=players[1].token)["data"]["match"] == {
        "yourSeat": None, "reclaimableSeat": 1}
    assert gql(query, token=players[0].token)["data"]["match"]["reclaimableSeat"] is None
    payload = gql(RECLAIM, {"id": match_id}, token=players[1].token)["data"]["reclaimSeat"]
    assert payload["errors"] == []
    assert gql(query, token=players[1].token)["data"]["match"] == {
        "yourSeat": 1, "reclaimableSeat": None}
