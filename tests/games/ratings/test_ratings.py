"""Ratings: a rated match moves each player's rating exactly as openskill's own
Plackett-Luce computation does for the same ranks; scoring again changes nothing; ties
share ranks; only rated matches count; leaderboards, profiles and histories show them."""

from __future__ import annotations

import hashlib

import pytest
from django.db import IntegrityError, transaction
from openskill.models import PlackettLuce

from games.matches import scoring
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Result, Seat
from games.ratings.models import Rating, RatingChange
from games.ratings.services import rate_match
from tests.games.graphql.support import error_codes, gql
from tests.games.support import API, assert_api_error, eager_celery, play_to_end

pytestmark = pytest.mark.django_db(transaction=True)


def human_match(users, game="han", bots=None):
    players = len(users) + len(bots or {})
    with eager_celery():
        match = match_services.create_match(user=users[0], game=game, players=players,
                                            bot_seats=bots or {}, creator_seat=0)
        for position, user in enumerate(users[1:], start=1):
            match_services.join_match(user=user, match_id=match.pk, position=position)
    return match.pk


def _expected(priors, ranks):
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in priors]
    return [(team[0].mu, team[0].sigma) for team in model.rate(teams, ranks=ranks)]


def _rating(user, game="han"):
    row = Rating.objects.get(user=user, game=game)
    return row.mu, row.sigma


def test_a_rated_match_moves_ratings_as_openskill_does(make_user):
    users = [make_user() for _ in range(3)]
    by_seat = dict(enumerate(users))
    match = play_to_end(human_match(users), by_seat)
    assert match.status == MatchStatus.FINISHED
    ranks = [row.rank for row in Result.objects.filter(match=match).order_by("seat")]
    prior = (PlackettLuce().mu, PlackettLuce().sigma)
    expected = _expected([prior] * 3, ranks)
    for seat, user in by_seat.items():
        assert _rating(user) == pytest.approx(expected[seat], rel=1e-12)
        change = RatingChange.objects.get(match=match, user=user)
        assert (change.seat, change.rank) == (seat, ranks[seat])
        assert (change.mu_before, change.sigma_before) == prior
        rating = Rating.objects.get(user=user, game="han")
        assert rating.rated_matches == 1 and rating.rated_wins == int(ranks[seat] == 1)
        assert rating.ordinal == pytest.approx(rating.mu - 3 * rating.sigma)

    # A second match starts from the ratings the first one left.
    priors = [_rating(user) for user in (users[2], users[0], users[1])]
    match = play_to_end(human_match([users[2], users[0], users[1]]),
                        {0: users[2], 1: users[0], 2: users[1]})
    ranks = [row.rank for row in Result.objects.filter(match=match).order_by("seat")]
    expected = _expected(priors, ranks)
    for seat, user in enumerate((users[2], users[0], users[1])):
        assert _rating(user) == pytest.approx(expected[seat], rel=1e-12)
        assert Rating.objects.get(user=user, game="han").rated_matches == 2
    assert not Rating.objects.filter(game="hansa").exists()  # ratings are per game


def test_scoring_again_changes_nothing(make_user):
    users = [make_user() for _ in range(2)]
    match = play_to_end(human_match(users, game="hansa"), dict(enumerate(users)))
    before = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "rated_matches"))
    changes = RatingChange.objects.count()
    assert changes == 2
    assert scoring.score_match(match_id=match.pk) is False  # the task, redelivered
    assert scoring.score_match(match_id=match.pk, rescore=True) is True  # admin re-score
    with transaction.atomic():
        assert rate_match(Match.objects.select_for_update().get(pk=match.pk)) is False
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma",
                                             "rated_matches")) == before
    assert RatingChange.objects.count() == changes
    # and the database itself refuses a second change for the same match and player
    first = RatingChange.objects.filter(match=match).first()
    first.pk = None
    with pytest.raises(IntegrityError), transaction.atomic():
        first.save()


def _finished_by_hand(users, ranks, game="han"):
    """A finished match with the given ranks per seat, written directly (real play cannot
    be steered into a tie)."""
    match = Match.objects.create(
        game=game, players=len(users), status=MatchStatus.FINISHED, seed="s",
        seed_commitment=hashlib.sha256(b"s").hexdigest(), state={}, ply=0,
    )
    for position, (user, rank) in enumerate(zip(users, ranks, strict=True)):
        if isinstance(user, str):
            Seat.objects.create(match=match, position=position, bot_kind=user)
        else:
            Seat.objects.create(match=match, position=position, user=user)
        Result.objects.create(match=match, seat=position, score=10 - rank, rank=rank)
    with transaction.atomic():
        return match, rate_match(Match.objects.select_for_update().get(pk=match.pk))


def test_ties_share_ranks(make_user):
    users = [make_user() for _ in range(4)]
    _match, rated = _finished_by_hand(users, [1, 1, 3, 3])
    assert rated
    prior = (PlackettLuce().mu, PlackettLuce().sigma)
    expected = _expected([prior] * 4, [1, 1, 3, 3])
    got = [_rating(user) for user in users]
    flat = [value for pair in got for value in pair]
    assert flat == pytest.approx([value for pair in expected for value in pair], rel=1e-12)
    assert got[0] == got[1] and got[2] == got[3] and got[0][0] > got[2][0]
    assert [Rating.objects.get(user=u, game="han").rated_wins for u in users] == [1, 1, 0, 0]


def test_bots_have_rated_accounts_per_kind(make_user):
    person = make_user()
    _match, rated = _finished_by_hand([person, "greedy", "random"], [2, 1, 3])
    assert rated
    prior = (PlackettLuce().mu, PlackettLuce().sigma)
    expected = _expected([prior] * 3, [2, 1, 3])
    assert _rating(person) == pytest.approx(expected[0])
    greedy = Rating.objects.get(user__username="bot:greedy", game="han")
    assert (greedy.mu, greedy.sigma) == pytest.approx(expected[1])
    assert not greedy.user.has_usable_password()
    # One bot kind in two seats plays at its rating but is not moved against itself.
    _match, rated = _finished_by_hand([person, "random", "random"], [1, 2, 3])
    assert rated
    random_bot = Rating.objects.get(user__username="bot:random", game="han")
    assert random_bot.rated_matches == 1
    assert Rating.objects.get(user=person, game="han").rated_matches == 2


def test_only_rated_matches_count(make_user):
    alice, bob = make_user(), make_user()
    # bots only: no person at the table
    _match, rated = _finished_by_hand(["greedy", "random"], [1, 2])
    assert rated is False
    # aborted
    match_id = human_match([alice, bob, make_user()])
    match_services.abort_match(user=alice, match_id=match_id)
    with transaction.atomic():
        assert rate_match(Match.objects.select_for_update().get(pk=match_id)) is False
    # incomplete seats (a match written as finished with a seat missing)
    match = Match.objects.create(
        game="han", players=3, status=MatchStatus.FINISHED, seed="s",
        seed_commitment=hashlib.sha256(b"s").hexdigest(), state={})
    for position, user in enumerate((alice, bob)):
        Seat.objects.create(match=match, position=position, user=user)
        Result.objects.create(match=match, seat=position, score=1, rank=1)
    with transaction.atomic():
        assert rate_match(Match.objects.select_for_update().get(pk=match.pk)) is False
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


def test_leaderboard_profile_and_history(make_user, api_client):
    users = [make_user() for _ in range(4)]
    _finished_by_hand(users, [1, 2, 2, 4])
    _finished_by_hand(users[:2], [1, 2], game="hansa")
    board = api_client.get(f"{API}/leaderboard/han/").json()
    assert board["count"] == 4
    assert [row["username"] for row in board["results"]][0] == users[0].username
    ordinals = [row["ordinal"] for row in board["results"]]
    assert ordinals == sorted(ordinals, reverse=True)
    assert [row["rank"] for row in board["results"]] == [1, 2, 3, 4]
    page = api_client.get(f"{API}/leaderboard/han/?limit=2&offset=2").json()
    assert [row["rank"] for row in page["results"]] == [3, 4]

    profile = api_client.get(f"{API}/users/{users[0].username}/").json()
    assert (profile["games_played"], profile["wins"], profile["is_bot"]) == (2, 2, False)
    assert {rating["game"] for rating in profile["ratings"]} == {"han", "hansa"}
    assert len(profile["recent_matches"]) == 2
    assert all("state" not in match and match["seed"] for match in profile["recent_matches"])
    history = api_client.get(f"{API}/users/{users[1].username}/ratings/?game=han").json()
    assert history["count"] == 1 and history["results"][0]["rank"] == 2

    body = gql("""query($u: String!) { leaderboard(game: "han") { totalCount results {
                 rank username rating { mu sigma ordinal ratedMatches } } }
               player(username: $u) { gamesPlayed wins ratings { game }
                 ratingHistory(game: "hansa") { rank muBefore muAfter }
                 recentMatches { id } } }""", {"u": users[0].username})
    assert "errors" not in body, body
    assert body["data"]["leaderboard"]["totalCount"] == 4
    assert body["data"]["leaderboard"]["results"][0]["username"] == users[0].username
    assert body["data"]["player"]["gamesPlayed"] == 2
    assert body["data"]["player"]["ratingHistory"][0]["rank"] == 1
    assert error_codes(gql('{ leaderboard(game: "chess") { totalCount } }')) == [
        "unknown_game"]
    assert error_codes(gql('{ player(username: "nobody-here") { wins } }')) == [
        "user_not_found"]


@pytest.mark.parametrize("url, status, code", [
    ("leaderboard/chess/", 404, "unknown_game"),
    ("leaderboard/han/?limit=0", 400, "invalid_request"),
    ("leaderboard/han/?offset=-3", 400, "invalid_request"),
    ("users/nobody-here/", 404, "user_not_found"),
    ("users/nobody-here/ratings/", 404, "user_not_found"),
    ("users/{user}/ratings/?game=chess", 400, "unknown_game"),
    ("users/{user}/ratings/?limit=1000", 400, "invalid_request"),
])
def test_bad_rating_requests_are_4xx(make_user, api_client, url, status, code):
    user = make_user()
    assert_api_error(api_client.get(f"{API}/{url.format(user=user.username)}"), status, code)
    assert not Rating.objects.exists()



def finished_after_a_timeout(alice, bob, carol) -> Match:
    """A finished, rated Han match written by hand (so the bot surely wins): alice timed out
    at seat 0, a bot took the seat over and ranked first, bob second, carol third."""
    from games.matches.incidents import Incident, IncidentKind

    match = Match.objects.create(
        game="han", players=3, status=MatchStatus.FINISHED, seed="s",
        seed_commitment=hashlib.sha256(b"s").hexdigest(), state={}, ply=0)
    Incident.objects.create(match=match, ply=3, seat=0, kind=IncidentKind.TIMEOUT,
                            user=alice)
    Incident.objects.create(match=match, ply=3, seat=0, kind=IncidentKind.TAKEOVER,
                            user=alice, bot_kind="greedy")
    Seat.objects.create(match=match, position=0, bot_kind="greedy")
    Seat.objects.create(match=match, position=1, user=bob)
    Seat.objects.create(match=match, position=2, user=carol)
    for position, rank in enumerate((1, 2, 3)):
        Result.objects.create(match=match, seat=position, score=10 - rank, rank=rank)
    with transaction.atomic():
        assert rate_match(Match.objects.select_for_update().get(pk=match.pk))
    return match


def test_a_timeout_is_a_loss_for_the_player_even_if_the_bot_then_wins(make_user):
    alice, bob, carol = make_user(), make_user(), make_user()
    finished_after_a_timeout(alice, bob, carol)
    prior = (PlackettLuce().mu, PlackettLuce().sigma)
    expected = _expected([prior] * 3, [3, 1, 2])  # alice last, the others keep their order
    assert [_rating(user) for user in (alice, bob, carol)] == [
        pytest.approx(pair) for pair in expected]
    assert RatingChange.objects.get(user=alice).rank == 3
    assert not Rating.objects.filter(user__username="bot:greedy").exists()


def test_scoring_costs_ten_statements_and_stamps_the_moved_ratings(make_user,
                                                                  webhook_types_known):
    """Scoring reads the match with its seats and incidents once, with its lock (one round
    trip), and hands them to the ratings and the feed, which read nothing more but the
    ratings themselves; the ratings are written in one statement (bulk_update, which does
    not stamp ``auto_now`` fields by itself: the service does). Ten statements for two
    players rated before (docs/capacity.md): the lock, the read, the old results out, the
    results in, the match, "rated already?", the ratings' lock, their update, the
    changes, the "match finished" feed events."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    users = [make_user() for _ in range(2)]
    play_to_end(human_match(users), dict(enumerate(users)))  # both are rated now
    match = play_to_end(human_match(users), dict(enumerate(users)))
    # undo the second match's scoring, to time it again
    RatingChange.objects.filter(match=match).delete()
    Result.objects.filter(match=match).delete()
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.SCORING)
    stamped = dict(Rating.objects.filter(user__in=users).values_list("user_id", "updated_at"))
    with CaptureQueriesContext(connection) as context:
        assert scoring.score_match(match_id=match.pk) is True
    statements = [query["sql"] for query in context.captured_queries
                  if query["sql"] not in ("BEGIN", "COMMIT")]
    assert len(statements) == 10, "\n".join(statements)
    assert Match.objects.get(pk=match.pk).status == MatchStatus.FINISHED
    assert RatingChange.objects.filter(match=match).count() == 2
    for user_id, updated_at in Rating.objects.filter(user__in=users).values_list(
            "user_id", "updated_at"):
        assert updated_at > stamped[user_id]
        assert Rating.objects.get(user_id=user_id, game="han").rated_matches == 3
