"""Quick match: requests are paired longest waiting first with ratings close and within
each other's ranges; a request can be cancelled; old ones expire; 50 simultaneous
requests from real threads on the real database pair everyone at most once and fill no
match beyond its seats; bad input is a 4xx that writes nothing."""

from __future__ import annotations

import threading
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games.feed.models import FeedEvent
from games.matches.models import Match, Seat
from games.quickmatch import services
from games.quickmatch.models import QuickMatchRequest, RequestStatus
from games.ratings.models import Rating
from tests.games.support import API, assert_api_error, eager_celery, row_counts

pytestmark = pytest.mark.django_db(transaction=True)

URL = f"{API}/quick-match/"


def _rated(user, mu, game="hansa"):
    Rating.objects.create(user=user, game=game, mu=mu, sigma=5.0, ordinal=mu - 15)
    return user


def _ask(user, game="hansa", players=2, **extra):
    return services.request_quick_match(user=user, game=game, players=players, **extra)


def test_longest_waiting_first_and_ratings_close(make_user):
    a, b, c, d = (_rated(make_user(), mu) for mu in (25.0, 40.0, 27.0, 24.0))
    requests = [_ask(user) for user in (a, b, c, d)]  # no worker: nothing pairs yet
    assert services.pair_waiting() == {"matches": 2, "paired": 4, "expired": 0}
    by_user = {r.user_id: r for r in QuickMatchRequest.objects.all()}
    # a waited longest and c is closest to it (d is closer still: 24 vs 27: |1| < |2|)
    assert by_user[a.pk].match_id == by_user[d.pk].match_id
    assert by_user[b.pk].match_id == by_user[c.pk].match_id
    match = Match.objects.get(pk=by_user[a.pk].match_id)
    assert match.status == "active"
    assert [s.user_id for s in match.seats.order_by("position")] == [a.pk, d.pk]
    assert all(r.status == RequestStatus.MATCHED for r in by_user.values())
    assert len(requests) == 4


def test_rating_ranges_are_respected_both_ways(make_user):
    low, high, mid = (_rated(make_user(), mu) for mu in (20.0, 35.0, 30.0))
    _ask(low, rating_range={"max": 25})  # will not meet anyone above 25
    _ask(high, rating_range={"min": 10})
    assert services.pair_waiting()["matches"] == 0
    _ask(mid)  # accepts anyone, and high accepts it
    assert services.pair_waiting()["matches"] == 1
    statuses = dict(QuickMatchRequest.objects.values_list("user_id", "status"))
    assert statuses == {low.pk: "waiting", high.pk: "matched", mid.pk: "matched"}


def test_only_identical_games_options_and_counts_pair(make_user):
    users = [make_user() for _ in range(4)]
    _ask(users[0], game="han", players=3, options={"map": "border-disputes"})
    _ask(users[1], game="han", players=3, options={"map": "border-disputes",
                                                   "variant": True})
    _ask(users[2], game="han", players=3)  # the default map for 3 is border-disputes
    _ask(users[3], game="hansa", players=2)
    assert services.pair_waiting()["matches"] == 0
    _ask(make_user(), game="han", players=3)
    assert services.pair_waiting() == {"matches": 1, "paired": 3, "expired": 0}
    assert QuickMatchRequest.objects.get(user=users[1]).status == "waiting"


def test_one_clock_pairs_whatever_its_spelling(make_user):
    """A preset by name, as {"preset": ...}, or its numbers written out as a custom clock:
    one clock. No time control and "none" too. Different clocks still never pair."""
    spellings = ["realtime-3+10", {"preset": "realtime-3+10"},
                 {"kind": "realtime", "initial_seconds": 180, "increment_seconds": 10}]
    for spelling in spellings:
        _ask(make_user(), time_control=spelling)
    _ask(make_user(), time_control=None)
    _ask(make_user(), time_control="none")
    _ask(make_user(), time_control="realtime-10+30")
    assert services.pair_waiting() == {"matches": 2, "paired": 4, "expired": 0}
    left = sorted(str(request.time_control) for request in
                  QuickMatchRequest.objects.filter(status="waiting"))
    # two of the three 3+10 spellings met, and the two "no clock" spellings; the third
    # 3+10 waits for a partner, and 10+30 met nobody
    assert len(left) == 2 and "realtime-10+30" in left, left


def test_cancel_and_expiry(make_user, make_auth_client):
    alice, bob = make_user(), make_user()
    client = make_auth_client(alice)
    created = client.post(URL, {"game": "hansa", "players": 2}, format="json")
    assert created.status_code == 201 and created.json()["status"] == "waiting"
    request_id = created.json()["id"]
    assert_api_error(make_auth_client(bob).delete(f"{URL}{request_id}/"), 404,
                     "quick_match_not_found")
    cancelled = client.delete(f"{URL}{request_id}/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert_api_error(client.delete(f"{URL}{request_id}/"), 409, "quick_match_closed")
    _ask(bob)
    assert services.pair_waiting()["matches"] == 0  # alice cancelled: nobody for bob
    QuickMatchRequest.objects.filter(user=bob).update(
        expires_at=timezone.now() - timedelta(seconds=1))
    assert services.pair_waiting()["expired"] == 1
    assert QuickMatchRequest.objects.get(user=bob).status == "expired"
    # a new request after the old one closed is fine
    assert client.post(URL, {"game": "hansa", "players": 2}, format="json").status_code == 201


def test_matched_players_hear_of_it_on_their_feed(make_user, make_auth_client):
    alice, bob = make_user(), make_user()
    with eager_celery():  # the pairing task runs on commit of the second request
        make_auth_client(alice).post(URL, {"game": "hansa", "players": 2}, format="json")
        second = make_auth_client(bob).post(URL, {"game": "hansa", "players": 2},
                                            format="json")
    assert second.json()["status"] == "matched"
    match_id = second.json()["match_id"]
    for user in (alice, bob):
        kinds = list(FeedEvent.objects.filter(user=user).values_list("kind", "payload"))
        assert ("matched", {"request_id": QuickMatchRequest.objects.get(user=user).pk,
                            "match_id": match_id, "game": "hansa", "players": 2}) in kinds
        assert "match_started" in [kind for kind, _payload in kinds]


def test_fifty_simultaneous_requests_pair_everyone_at_most_once(make_user):
    """Real threads, each with its own database connection, ask at the same moment and
    each runs the pairing on its commit (eager tasks): 30 two-player Hansa requests and
    20 three-player Han ones."""
    users = [make_user() for _ in range(50)]
    wishes = [("hansa", 2)] * 30 + [("han", 3)] * 20
    barrier = threading.Barrier(len(users))
    failures: list[BaseException] = []

    def ask(user, game, players):
        try:
            barrier.wait()
            services.request_quick_match(user=user, game=game, players=players)
        except BaseException as exc:  # noqa: BLE001 - reported by the main thread
            failures.append(exc)
        finally:
            connection.close()

    with eager_celery():
        threads = [threading.Thread(target=ask, args=(user, *wish))
                   for user, wish in zip(users, wishes, strict=True)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
    assert not failures, failures[:3]
    services.pair_waiting()  # whatever the last commits left behind
    requests = list(QuickMatchRequest.objects.all())
    assert len(requests) == 50
    matched = [r for r in requests if r.status == RequestStatus.MATCHED]
    # everyone paired at most once: one request each, each names one match
    assert Counter(r.user_id for r in requests).most_common(1)[0][1] == 1
    assert len(matched) == 30 + 18  # 15 Hansa tables, 6 Han tables; 2 Han players wait
    assert Counter(r.status for r in requests)[RequestStatus.WAITING] == 2
    matches = Match.objects.filter(pk__in={r.match_id for r in matched})
    assert matches.count() == 15 + 6
    for match in matches:
        seats = list(Seat.objects.filter(match=match))
        assert len(seats) == match.players  # full, never over-filled
        assert {s.user_id for s in seats} == {r.user_id for r in matched
                                              if r.match_id == match.pk}
        assert match.status == "active"
    seated = Counter(Seat.objects.filter(match__in=matches).values_list("user_id",
                                                                        flat=True))
    assert max(seated.values()) == 1  # nobody in two matches


@pytest.mark.parametrize("body, status, code", [
    ({"game": "chess", "players": 2}, 400, "unknown_game"),
    ({"game": "hansa", "players": 7}, 400, "invalid_player_count"),
    ({"game": "hansa", "players": "2"}, 400, "invalid_player_count"),
    ({"game": "hansa", "players": 2, "options": {"x": 1}}, 400, "invalid_options"),
    ({"game": "hansa", "players": 2, "options": [1]}, 400, "invalid_options"),
    ({"game": "hansa", "players": 2, "time_control": "forever"}, 400, "unknown_preset"),
    ({"game": "hansa", "players": 2, "rating_range": "close"}, 400, "invalid_request"),
    ({"game": "hansa", "players": 2, "rating_range": {"min": 30, "max": 20}}, 400,
     "invalid_request"),
    ({"game": "hansa", "players": 2, "rating_range": {"min": True}}, 400,
     "invalid_request"),
    ({"game": "hansa", "players": 2, "rating_range": {"min": 1e9}}, 400, "invalid_request"),
    ({"game": "hansa", "players": 2, "rating_range": {"low": 1}}, 400, "invalid_request"),
    ({"game": "hansa", "players": 2, "colour": "red"}, 400, "invalid_input"),
    ({"players": 2}, 400, "invalid_input"),
])
def test_bad_requests_are_4xx_and_write_nothing(make_user, make_auth_client, body, status,
                                                code):
    client = make_auth_client(make_user())
    before = row_counts(), QuickMatchRequest.objects.count()
    response = client.post(URL, body, format="json")
    assert response.status_code == status, response.json()
    assert response.json()["error"]["code"] == code
    assert (row_counts(), QuickMatchRequest.objects.count()) == before


def test_waiting_twice_is_refused(make_user, make_auth_client, api_client):
    client = make_auth_client(make_user())
    assert client.post(URL, {"game": "hansa", "players": 2}, format="json").status_code == 201
    assert_api_error(client.post(URL, {"game": "han", "players": 3}, format="json"), 409,
                     "already_waiting")
    assert QuickMatchRequest.objects.count() == 1
    assert_api_error(api_client.post(URL, {"game": "hansa", "players": 2}, format="json"),
                     401, "not_authenticated")
    assert_api_error(client.delete(f"{URL}x/"), 404, "quick_match_not_found")
    listed = client.get(URL).json()["results"]
    assert [row["status"] for row in listed] == ["waiting"]


def test_graphql_requests_lists_and_cancels(make_user):
    from tests.games.graphql.support import gql, make_player

    alice = make_player(make_user)
    body = gql('mutation { requestQuickMatch(game: "chess", players: 2) '
               '{ request { id } errors { code } } }', token=alice.token)
    assert body["data"]["requestQuickMatch"] == {"request": None,
                                                 "errors": [{"code": "unknown_game"}]}
    assert QuickMatchRequest.objects.count() == 0
    body = gql('mutation { requestQuickMatch(game: "hansa", players: 2, '
               'ratingRange: {max: 30}) { request { id status ratingRange } errors { code } } }',
               token=alice.token)
    request = body["data"]["requestQuickMatch"]["request"]
    assert request["status"] == "waiting" and request["ratingRange"] == {"min": None,
                                                                         "max": 30.0}
    assert gql("{ myQuickMatches { id status } }", token=alice.token)["data"][
        "myQuickMatches"] == [{"id": request["id"], "status": "waiting"}]
    body = gql("mutation($id: ID!) { cancelQuickMatch(requestId: $id) { request { status } "
               "errors { code } } }", {"id": request["id"]}, token=alice.token)
    assert body["data"]["cancelQuickMatch"]["request"]["status"] == "cancelled"
    body = gql('mutation { requestQuickMatch(game: "hansa", players: 2) { errors { code } } }')
    assert body["data"]["requestQuickMatch"]["errors"] == [{"code": "not_authenticated"}]
