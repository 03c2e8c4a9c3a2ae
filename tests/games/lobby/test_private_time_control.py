"""A private match takes a time control as a listed one does (review finding: REST
``POST /private-matches/`` accepted ``time_control`` and dropped it, a clockless match
made whatever was asked; GraphQL ``createPrivateMatch`` had no such argument): REST and
GraphQL store the same clock, and a bad one is a 4xx that writes nothing."""

from __future__ import annotations

import pytest

from games.lobby.models import PrivateMatch
from games.matches.models import Match
from tests.games.graphql.support import gql, make_player
from tests.games.support import API, assert_api_error, row_counts

pytestmark = pytest.mark.django_db(transaction=True)

GQL_PRIVATE = """mutation Create($clock: JSON) {
  createPrivateMatch(game: "han", players: 2, timeControl: $clock) {
    match { id timeControl } errors { code field } } }"""


def test_rest_and_graphql_private_matches_keep_their_time_control(make_user,
                                                                  make_auth_client):
    client = make_auth_client(make_user())
    made = client.post(f"{API}/private-matches/", {"game": "han", "players": 2,
                                                   "time_control": "realtime-10+30"},
                       format="json")
    assert made.status_code == 201, made.json()
    stored = Match.objects.get(pk=made.json()["id"]).time_control
    assert (stored["preset"], stored["kind"]) == ("realtime-10+30", "realtime")
    assert made.json()["time_control"] == stored

    body = gql(GQL_PRIVATE, {"clock": "realtime-10+30"}, token=make_player(make_user).token)
    payload = body["data"]["createPrivateMatch"]
    assert payload["errors"] == []
    assert Match.objects.get(pk=payload["match"]["id"]).time_control == stored
    assert PrivateMatch.objects.count() == 2


def test_a_bad_time_control_of_a_private_match_is_refused_and_writes_nothing(
        make_user, make_auth_client):
    client = make_auth_client(make_user())
    before = row_counts()
    assert_api_error(client.post(f"{API}/private-matches/",
                                 {"game": "han", "players": 2, "time_control": "no-such"},
                                 format="json"), 400, "unknown_preset")
    body = gql(GQL_PRIVATE, {"clock": {"kind": "realtime", "initial_seconds": -1}},
               token=make_player(make_user).token)
    assert body["data"]["createPrivateMatch"]["match"] is None
    (error,) = body["data"]["createPrivateMatch"]["errors"]
    assert error == {"code": "invalid_time_control", "field": "timeControl"}
    assert row_counts() == before
