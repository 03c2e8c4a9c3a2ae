"""Replays: a finished match's log rebuilds its snapshot and result exactly, and the replay
of a running match shows each reader exactly what their live view showed at that ply."""

from __future__ import annotations

import pytest

from games.matches import errors, scoring, selectors
from games.matches import services as match_services
from games.matches.models import Match, Result
from games.matches.replay import iter_replay, replay_state
from rules import get_engine
from tests.games.support import eager_celery, match_url

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize(
    "game, players, options",
    [
        ("han", 4, {"map": "border-disputes", "variant": True}),
        ("han", 2, {"map": "ways-of-diplomacy", "variant": True}),
        ("hansa", 3, {}),
    ],
)
def test_a_finished_match_replays_to_its_snapshot_and_result(game, players, options):
    with eager_celery():
        match = match_services.create_match(
            user=None, game=game, players=players, options=options, take_seat=False,
            bot_seats={seat: ("greedy" if seat % 2 else "random") for seat in range(players)},
        )
    match = Match.objects.get(pk=match.pk)
    assert match.status == "finished" and match.ply > 10

    engine = get_engine(game)
    replayed = replay_state(match)
    assert engine.to_json(replayed) == match.state
    expected = engine.result(replayed)
    rows = list(Result.objects.filter(match=match).order_by("seat"))
    assert [row.score for row in rows] == expected["scores"]
    assert [row.rank for row in rows] == expected["ranks"]
    assert [row.breakdown for row in rows] == expected["breakdown"]

    # Walking the log ply by ply (the admin page, the benchmark) ends in the same place.
    *_, (last_ply, _seat, _move, last_state) = iter_replay(match)
    assert last_ply == match.ply and engine.to_json(last_state) == match.state

    # Re-scoring from the log (admin action) rewrites identical results.
    assert scoring.score_match(match_id=match.pk, rescore=True) is True
    assert [(r.score, r.rank) for r in Result.objects.filter(match=match).order_by("seat")] == [
        (r.score, r.rank) for r in rows
    ]


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_replay_of_a_running_match_shows_exactly_the_live_view_of_that_ply(
    game, make_user, make_auth_client, api_client
):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game=game, players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    clients = {0: make_auth_client(ann), 1: make_auth_client(bob)}
    readers = {0: clients[0], 1: clients[1], None: api_client}

    live: dict[tuple[int, int | None], dict] = {}
    for _ in range(24):
        for reader, client in readers.items():
            detail = client.get(match_url(match.pk)).json()
            live[(detail["ply"], reader)] = detail["view"]
        if detail["status"] != "active":
            break
        seat = detail["to_act"][0]
        legal = clients[seat].get(match_url(match.pk, "legal-moves/")).json()
        # the last listed move, to wander away from the first-move path of other tests
        response = clients[seat].post(match_url(match.pk, "moves/"),
                                      {"move": legal["moves"][-1], "expected_ply": legal["ply"]},
                                      format="json")
        assert response.status_code == 201

    assert Match.objects.get(pk=match.pk).status == "active"
    for (ply, reader), view in live.items():
        replay = readers[reader].get(match_url(match.pk, f"replay/?ply={ply}")).json()
        assert replay["view"] == view, (ply, reader)
        assert "state" not in replay  # the full state only once the match has ended


def test_replay_selector_rejects_plies_outside_the_log(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    match = selectors.get_match(match.pk)
    for bad in (-1, 1, "1", "x", "", 2.0, True):  # None means the latest ply
        with pytest.raises(errors.InvalidPly):
            selectors.replay_view(match, ann, bad)
    assert selectors.replay_view(match, ann, 0)["ply"] == 0
    assert selectors.replay_view(match, ann, None)["ply"] == match.ply
