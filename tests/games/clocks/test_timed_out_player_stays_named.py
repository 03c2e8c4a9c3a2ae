"""A timed-out player does not disappear (issue 22, item 6): after a takeover the seat is
``kind: "bot"`` and still names its player (``user`` and ``taken_over_from``) in the
match (REST, GraphQL, the match list, the play socket's payload), the record and the
admin list, and each incident names the user it happened to. A reclaim makes the seat
the player's again; a bot's own seat names nobody."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.test import Client
from rest_framework.test import APIClient

from games.admin.glance import players_text
from games.clocks import services as clock_services
from games.matches import selectors, services
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from games.records.selectors import record_of
from rules import get_engine
from tests.games.graphql.support import gql
from tests.games.support import API, eager_celery, match_url, play_to_end

pytestmark = pytest.mark.django_db(transaction=True)  # bots play on commit

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _timed_out(make_user):
    """ann (seat 0) and bob (seat 1) in a clocked Hansa match; ann's clock runs out and
    the greedy bot takes her seat over."""
    ann, bob = make_user("ann_times_out"), make_user("bob_keeps_time")
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(user=ann, game="hansa", players=2,
                                            time_control="realtime-3+10")
        match_services.join_match(user=bob, match_id=match.pk)
        state = get_engine("hansa").from_json(Match.objects.get(pk=match.pk).state)
        services.submit_move(match_id=match.pk, user=bob,
                             move=get_engine("hansa").legal_moves(state, 1)[0])
        traveller.shift(timedelta(seconds=181))
        assert clock_services.sweep_expired_clocks() == 1
    return ann, bob, Match.objects.get(pk=match.pk)


TAKEN_OVER = {"position": 0, "kind": "bot", "username": "ann_times_out",
              "user": "ann_times_out", "bot_kind": "greedy",
              "taken_over_from": "ann_times_out"}
KEPT = {"position": 1, "kind": "human", "username": "bob_keeps_time",
        "user": "bob_keeps_time", "bot_kind": None,
        "taken_over_from": None}


def test_the_match_names_the_timed_out_player_everywhere(make_user):
    ann, bob, match = _timed_out(make_user)
    detail = APIClient().get(match_url(match.pk)).json()
    assert detail["seats"] == [TAKEN_OVER, KEPT]
    assert [(row["kind"], row["user"]) for row in detail["incidents"]] == [
        ("timeout", "ann_times_out"), ("takeover", "ann_times_out")]
    listed = APIClient().get(f"{API}/matches/", {"status": "active"}).json()
    assert next(row for row in listed["results"] if row["id"] == match.pk)["seats"] == [
        TAKEN_OVER, KEPT]
    events = APIClient().get(match_url(match.pk, "events/")).json()
    assert {row["user"] for row in events["incidents"]} == {"ann_times_out"}

    data = gql("""query($id: ID!) { match(id: $id) {
        seats { position kind username botKind takenOverFrom }
        incidents { kind username } } }""",
               {"id": str(match.pk)})["data"]["match"]
    assert data["seats"][0] == {"position": 0, "kind": "BOT", "username": "ann_times_out",
                                "botKind": "greedy", "takenOverFrom": "ann_times_out"}
    assert data["seats"][1]["takenOverFrom"] is None
    assert [row["username"] for row in data["incidents"]] == ["ann_times_out"] * 2

    # the admin's match list and its "players" column
    admin = Client()
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    page = admin.get("/admin/games/match/")
    assert page.status_code == 200
    assert b"ann_times_out (greedy bot)" in page.content
    assert players_text(selectors.get_match(match.pk)) == \
        "ann_times_out (greedy bot), bob_keeps_time"

    # she takes it back: a person's seat again, nobody "taken over from"
    with eager_celery():
        clock_services.reclaim_seat(user=ann, match_id=match.pk)
    seats = APIClient().get(match_url(match.pk)).json()["seats"]
    assert seats[0] == {"position": 0, "kind": "human", "username": "ann_times_out",
                        "user": "ann_times_out",
                        "bot_kind": None, "taken_over_from": None}


def test_the_record_names_the_player_a_bot_finished_for(make_user):
    ann, bob, match = _timed_out(make_user)
    match = play_to_end(match.pk, {1: bob})
    assert match.status == MatchStatus.FINISHED
    record = record_of(match.pk)
    assert record["seats"] == [TAKEN_OVER, KEPT]
    assert [(row["kind"], row["user"]) for row in record["incidents"]] == [
        ("timeout", "ann_times_out"), ("takeover", "ann_times_out")]


def test_a_bots_own_seat_names_nobody(make_user):
    ann = make_user()
    with eager_celery():
        match = match_services.create_match(user=ann, game="han", players=2,
                                            bot_seats={1: "random"})
    seats = APIClient().get(match_url(match.pk)).json()["seats"]
    assert seats[1] == {"position": 1, "kind": "bot", "username": None, "user": None,
                        "bot_kind": "random",
                        "taken_over_from": None}
