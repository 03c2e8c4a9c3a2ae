"""A bot kind's profile (``bot:<kind>``) counts the matches its rating counts: it plays
no seat of its own (bot seats name a kind, not a user), so ``games_played`` said 0 while
its rating counted every rated match (issue 22, item 6)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.matches import services as match_services
from games.matches.models import MatchStatus
from games.ratings.models import Rating
from tests.games.support import API, eager_celery, play_to_end

pytestmark = pytest.mark.django_db(transaction=True)  # scoring and ratings run on commit


def _profile(username) -> dict:
    response = APIClient().get(f"{API}/users/{username}/")
    assert response.status_code == 200, response.content[:300]
    return response.json()


def test_games_played_agrees_with_the_rated_matches(make_user):
    people = [make_user(), make_user()]
    finished = []
    with eager_celery():
        for person in people:  # two rated matches: a person against the greedy bot
            match = match_services.create_match(user=person, game="han", players=2,
                                                bot_seats={1: "greedy"})
            finished.append(play_to_end(match.pk, {0: person}))
        # a bot-only match is not rated and not counted (no person sat there)
        match_services.create_match(user=None, game="han", players=2, take_seat=False,
                                    bot_seats={0: "greedy", 1: "random"})
    assert all(match.status == MatchStatus.FINISHED for match in finished)
    rating = Rating.objects.get(user__username="bot:greedy", game="han")
    assert rating.rated_matches == 2
    profile = _profile("bot:greedy")
    assert profile["is_bot"] is True
    assert profile["games_played"] == rating.rated_matches == 2
    assert profile["wins"] == rating.rated_wins
    assert profile["games"] == [{"game": "han", "played": 2, "wins": rating.rated_wins}]
    assert sorted(row["id"] for row in profile["recent_matches"]) == sorted(
        match.pk for match in finished)
    # a person's profile is unchanged: their own finished seats
    assert _profile(people[0].username)["games_played"] == 1
