"""Admin at a glance, on the pages' HTML: the match list (game, players, status, to act,
clocks, winner), the match page (result and winner at the top, moves linked to their
replay ply), the replay page (usernames, final scores at the end, a board that scales,
the Hansa legend) and the clock actions (add time, hand a seat to a bot and back)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.matches import scoring, services
from games.matches import services as match_services
from games.matches.incidents import Incident
from games.matches.models import Match, MatchStatus, Result, Seat
from rules import get_engine
from tests.games.support import TEST_SEED

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(make_user) -> Client:
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


def _finished_duel(make_user, game: str) -> tuple[Match, list]:
    """Two named players whose seats bots play to the end (admin hand-over before start)."""
    users = [make_user(username=f"{game}-ann"), make_user(username=f"{game}-bob")]
    match = match_services.create_match(user=users[0], game=game, players=2, seed=TEST_SEED)
    match_services.join_match(user=users[1], match_id=match.pk)
    engine = get_engine(game)
    match = Match.objects.get(pk=match.pk)
    while match.status == MatchStatus.ACTIVE:  # first legal move each: plain submit_move
        state = engine.from_json(match.state)
        seat = engine.to_act(state)[0]
        services.submit_move(match_id=match.pk, user=users[seat],
                             move=engine.legal_moves(state, seat)[0])
        match = Match.objects.get(pk=match.pk)
    scoring.score_match(match_id=match.pk)
    return Match.objects.get(pk=match.pk), users


def _running_clocked(make_user) -> tuple[Match, list]:
    users = [make_user(username="clock-ann"), make_user(username="clock-bob")]
    match = match_services.create_match(user=users[0], game="hansa", players=2,
                                        time_control="realtime-10+30")
    match_services.join_match(user=users[1], match_id=match.pk)
    return Match.objects.get(pk=match.pk), users


def test_the_list_shows_game_players_status_to_act_clocks_and_winner(admin_client, make_user):
    done, _ = _finished_duel(make_user, "hansa")
    running, _ = _running_clocked(make_user)
    html = admin_client.get(reverse("admin:games_match_changelist")).content.decode()
    for column in ("players", "to act", "clocks", "winner"):
        assert f">{column.capitalize()}<" in html or f">{column}<" in html.lower(), column
    winner = Result.objects.get(match=done, rank=1).seat
    assert f"hansa-{'ann' if winner == 0 else 'bob'}" in html
    assert "hansa-ann, hansa-bob" in html and "clock-ann, clock-bob" in html
    assert "clock-ann 10:00 (running), clock-bob 10:00 (running)" in html or \
        re.search(r"clock-ann 9:5\d \(running\)", html)


def test_the_list_costs_the_same_queries_for_one_match_or_many(admin_client, make_user):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert admin_client.get(reverse("admin:games_match_changelist")).status_code == 200
        return len(captured)

    _running_clocked(make_user)
    one = queries()
    for _ in range(6):  # active, with clocks, seats, to act: nothing more per row
        match_services.create_match(user=make_user(), game="han", players=2,
                                    bot_seats={1: "greedy"}, time_control="turn-based-1d")
    assert queries() == one


def test_the_match_page_starts_with_the_result_and_links_moves_to_their_ply(
    admin_client, make_user
):
    match, _users = _finished_duel(make_user, "han")
    html = admin_client.get(reverse("admin:games_match_change", args=[match.pk])).content
    html = html.decode()
    winner = Result.objects.get(match=match, rank=1).seat
    head = html.index("Winner: <strong>")
    assert head < html.index("Moves") and head < html.index("Seed commitment")
    assert f"han-{'ann' if winner == 0 else 'bob'}" in html[head:head + 80]
    replay = reverse("admin:games_match_replay", args=[match.pk])
    assert f'<a href="{replay}?ply=1">0</a>' in html
    assert f'<a href="{replay}?ply={match.ply}">{match.ply - 1}</a>' in html


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_the_replay_shows_names_and_at_the_end_the_final_scores(admin_client, make_user, game):
    match, _users = _finished_duel(make_user, game)
    url = reverse("admin:games_match_replay", args=[match.pk])
    end = admin_client.get(url).content.decode()
    finals = dict(Result.objects.filter(match=match).values_list("seat", "score"))
    assert "Final scores" in end
    assert f"{game}-ann {finals[0]} / {game}-bob {finals[1]}" in end
    board = end[end.index("replay-board"):]
    assert f"{game}-ann" in board and "seat 0" not in board.split("</svg>")[0]
    assert ".replay-board svg { width: 100%" in end  # scales to the window
    start = admin_client.get(url, {"ply": 0}).content.decode()
    assert "Running scores" in start and f"{game}-ann 0 / {game}-bob 0" in start
    assert ("<caption>Legend</caption>" in end) == (game == "hansa")
    if game == "hansa":
        assert "notable-person type" in end and "trade power" in end


def test_clock_actions_add_time_and_hand_a_seat_to_a_bot_and_back(admin_client, make_user):
    match, users = _running_clocked(make_user)
    changelist = reverse("admin:games_match_changelist")
    form = admin_client.post(changelist, {"action": "add_time",
                                          "_selected_action": [match.pk]})
    assert b'name="seconds"' in form.content
    admin_client.post(changelist, {"action": "add_time", "apply": "1", "position": 1,
                                   "seconds": 90, "_selected_action": [match.pk]})
    assert Match.objects.get(pk=match.pk).clocks[1]["remaining_ms"] >= 690_000 - 5_000
    refused = admin_client.post(changelist, {"action": "add_time", "apply": "1",
                                             "position": 1, "seconds": -5,
                                             "_selected_action": [match.pk]})
    assert refused.status_code == 200 and b"errorlist" in refused.content  # form error

    admin_client.post(changelist, {"action": "hand_seat_to_bot", "apply": "1", "position": 1,
                                   "bot_kind": "random", "_selected_action": [match.pk]})
    assert Seat.objects.get(match=match, position=1).bot_kind == "random"
    admin_client.post(changelist, {"action": "hand_seat_back", "apply": "1", "position": 1,
                                   "_selected_action": [match.pk]})
    assert Seat.objects.get(match=match, position=1).user == users[1]
    kinds = list(Incident.objects.filter(match=match).values_list("kind", flat=True))
    assert kinds == ["time_added", "takeover", "reclaim"]
    page = admin_client.get(reverse("admin:games_match_change", args=[match.pk]))
    assert "time_added of clock-bob at ply 0" in page.content.decode()
