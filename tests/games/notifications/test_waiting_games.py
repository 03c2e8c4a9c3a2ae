"""The games waiting for a player (REST ``/me/waiting-games/``, GraphQL
``gamesWaitingForMe``): only active matches where their seat owes a decision, the
earliest deadline of their own seat first, matches without a clock last; the list
envelope; and no hidden information in any row."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
import time_machine

from games.matches import services as match_services
from games.matches.models import Match
from tests.games.graphql.support import gql, make_player
from tests.games.support import API, assert_no_leak

pytestmark = pytest.mark.django_db

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
URL = f"{API}/me/waiting-games/"


def _match_waiting_for(player, other, time_control: str) -> Match:
    """An active two-player match whose seat to act is ``player``'s."""
    match = match_services.create_match(user=other, game="hansa", players=2,
                                        time_control=time_control, creator_seat=0)
    match_services.join_match(user=player, match_id=match.pk)
    match = Match.objects.get(pk=match.pk)
    if match.seats.get(user=player).position not in match.to_act:
        match = _match_waiting_for(player, other, time_control)  # the deal chose the other
    return match


def test_waiting_games_come_by_deadline_none_last(make_user, auth_client, user):
    other = make_user()
    with time_machine.travel(T0, tick=False):
        untimed = _match_waiting_for(user, other, "none")
        turn_based = _match_waiting_for(user, other, "turn-based-3d")
        realtime = _match_waiting_for(user, other, "realtime-10+30")
        theirs = match_services.create_match(user=other, game="hansa", players=2)
        match_services.join_match(user=make_user(), match_id=theirs.pk)  # not user's
        page = auth_client.get(URL).json()
    assert list(page) == ["count", "next", "previous", "results"]
    assert [row["match_id"] for row in page["results"]] == [realtime.pk, turn_based.pk,
                                                            untimed.pk]
    assert page["results"][0]["deadline"] == "2026-03-02T09:10:00Z"
    assert page["results"][1]["deadline"] == "2026-03-05T09:00:00Z"
    assert page["results"][2]["deadline"] is None
    assert page["results"][1]["time_control"] == "turn_based"
    second = auth_client.get(f"{URL}?limit=1&offset=1").json()
    assert second["count"] == 3 and [r["match_id"] for r in second["results"]] == [
        turn_based.pk]
    for row in page["results"]:
        match = Match.objects.get(pk=row["match_id"])
        assert_no_leak(row, game="hansa", state=match.state, seed=match.seed,
                       reader=row["seat"])


def test_graphql_lists_the_same_rows(make_user):
    player = make_player(make_user)
    match = _match_waiting_for(player.user, make_user(), "turn-based-1d")
    body = gql("{ gamesWaitingForMe { matchId game seat timeControl deadline } }",
               token=player.token)
    (row,) = body["data"]["gamesWaitingForMe"]
    assert row["matchId"] == str(match.pk) and row["timeControl"] == "turn_based"
    assert row["deadline"].endswith("Z")
    bad = gql("{ gamesWaitingForMe(limit: 0) { matchId } }", token=player.token)
    assert bad["errors"][0]["extensions"]["code"] == "invalid_request"


def test_anonymous_callers_are_refused(api_client):
    assert api_client.get(URL).status_code == 401
    assert gql("{ gamesWaitingForMe { matchId } }")["errors"][0]["extensions"]["code"] == (
        "not_authenticated")
