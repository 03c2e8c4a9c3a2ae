"""A real Celery worker (tests/games/matches/test_celery_worker.py's fixture) enforces a deadline:
a realtime match with a two-second clock where the human never moves ends with the seat
taken over by its bot and the match played out and scored. No beat here: the deadline
task sent with its ETA does it alone."""

from __future__ import annotations

import pytest

from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, Result, Seat
from games.matches.replay import replay_result
from tests.games.matches.test_celery_worker import _wait_finished, worker  # noqa: F401 (fixture)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.celery_worker, pytest.mark.slow]


def test_a_human_who_never_moves_is_taken_over_and_the_match_finishes(worker, make_user):  # noqa: F811
    ann = make_user()
    match = match_services.create_match(
        user=ann, game="han", players=2, bot_seats={1: "greedy"},
        time_control={"kind": "realtime", "initial_seconds": 2, "increment_seconds": 0},
    )
    assert Match.objects.get(pk=match.pk).status == "active"
    _wait_finished([match.pk], worker, timeout=120)

    incidents = list(Incident.objects.filter(match=match).values_list("seat", "kind"))
    assert incidents == [(0, "timeout"), (0, "takeover")]
    assert Seat.objects.get(match=match, position=0).bot_kind == "greedy"
    assert Result.objects.filter(match=match).count() == 2
    stored = dict(Result.objects.filter(match=match).values_list("seat", "rank"))
    rebuilt = replay_result(Match.objects.get(pk=match.pk))
    assert stored == dict(enumerate(rebuilt["ranks"]))
