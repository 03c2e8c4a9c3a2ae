"""A match counts for the person who played the seat, also when a bot finished it for them
(their clock ran out): the profile (games played, wins, recent matches), the records
export, the rematch and the feed agree with ratings on who played each seat
(games/matches/seat_players.py), and the profile's wins are ratings' wins (a timeout is a
loss, docs/ratings.md)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from games.clocks import services as clock_services
from games.feed.models import FeedEvent
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import MatchStatus, Seat
from games.matches.seat_players import player_of, seats_played_by
from games.ratings.models import Rating, RatingChange
from tests.games.graphql.support import gql
from tests.games.ratings.test_ratings import finished_after_a_timeout
from tests.games.records.test_records import _ndjson
from tests.games.support import API, eager_celery

pytestmark = pytest.mark.django_db(transaction=True)

T0 = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _profile(client, user):
    response = client.get(f"{API}/users/{user.username}/")
    assert response.status_code == 200, response.json()
    return response.json()


def _rated(user):
    rows = Rating.objects.filter(user=user)
    return sum(row.rated_matches for row in rows), sum(row.rated_wins for row in rows)


def assert_profile_agrees_with_ratings(client, user):
    profile = _profile(client, user)
    assert (profile["games_played"], profile["wins"]) == _rated(user)
    return profile


def assert_sql_and_python_agree():
    """``seats_played_by`` (SQL) names exactly the seats ``player_of`` gives each person."""
    from accounts.models import User

    by_user: dict[int, set[int]] = {}
    for seat in Seat.objects.all():
        incidents = Incident.objects.filter(match_id=seat.match_id).order_by("id")
        player = player_of(seat, incidents)
        if player is not None:
            by_user.setdefault(player, set()).add(seat.pk)
    for user in User.objects.all():
        assert set(seats_played_by(user).values_list("pk", flat=True)) == by_user.get(
            user.pk, set()), user.username


def test_a_seat_a_bot_won_after_the_players_timeout_counts_as_their_loss(make_user,
                                                                         api_client):
    """The bot at alice's seat won: the result ranks it first, ratings rank alice last and
    bob first, and so must the profiles."""
    alice, bob, carol = make_user(), make_user(), make_user()
    match = finished_after_a_timeout(alice, bob, carol)

    profile = assert_profile_agrees_with_ratings(api_client, alice)
    assert (profile["games_played"], profile["wins"]) == (1, 0)
    assert profile["games"] == [{"game": "han", "played": 1, "wins": 0}]
    assert [row["id"] for row in profile["recent_matches"]] == [match.pk]
    assert (_profile(api_client, bob)["wins"], _profile(api_client, carol)["wins"]) == (1, 0)
    assert_profile_agrees_with_ratings(api_client, bob)
    assert_profile_agrees_with_ratings(api_client, carol)
    body = gql("query($u: String!) { player(username: $u) { gamesPlayed wins } }",
               {"u": alice.username})
    assert body["data"]["player"] == {"gamesPlayed": 1, "wins": 0}
    assert_sql_and_python_agree()


def test_a_match_finished_by_a_bot_after_a_timeout_counts_everywhere(make_user, api_client,
                                                                     make_auth_client):
    """The real path: ann times out, the takeover bot and the other bots play to the end,
    scoring rates it; every reader of "who played this seat" names ann for seat 0."""
    ann = make_user()
    with eager_celery(), time_machine.travel(T0, tick=False) as traveller:
        match = match_services.create_match(
            user=ann, game="hansa", players=3, bot_seats={1: "greedy", 2: "random"},
            time_control="realtime-3+10", creator_seat=0)
        traveller.shift(timedelta(seconds=181))
        assert clock_services.sweep_expired_clocks() == 1  # the bots play it out inside
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert Seat.objects.get(match=match, position=0).user_id is None
    assert RatingChange.objects.get(match=match, user=ann).seat == 0

    profile = assert_profile_agrees_with_ratings(api_client, ann)
    assert profile["games_played"] == 1 and profile["wins"] == 0  # a timeout is a loss
    assert [row["id"] for row in profile["recent_matches"]] == [match.pk]
    records = _ndjson(api_client.get(f"{API}/users/{ann.username}/records/"))
    assert [record["match"]["id"] for record in records] == [match.pk]
    assert FeedEvent.objects.filter(user=ann, kind="match_finished").count() == 1
    rematch = make_auth_client(ann).post(f"{API}/matches/{match.pk}/rematch/", {},
                                         format="json")
    assert rematch.status_code in (200, 201), rematch.json()
    assert_sql_and_python_agree()
