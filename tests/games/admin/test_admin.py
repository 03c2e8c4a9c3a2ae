"""Django admin: the match pages render, actions go through the services, and the replay
page steps through the plies without showing hidden information of a running match."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.matches import bot_moves, scoring, services
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus, Move, Seat
from rules import get_engine
from tests.games.support import TEST_SEED, eager_celery

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(make_user) -> Client:
    client = Client()
    client.force_login(make_user(is_staff=True, is_superuser=True))
    return client


@pytest.fixture
def running_match(make_user):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2, seed=TEST_SEED)
    match_services.join_match(user=bob, match_id=match.pk)
    match.refresh_from_db()
    for seat in (0, 1):  # both keep two cards: two plies
        legal = get_engine("hansa").legal_moves(get_engine("hansa").from_json(
            Match.objects.get(pk=match.pk).state), seat)
        services.submit_move(match_id=match.pk, user=[ann, bob][seat], move=legal[0])
    return Match.objects.get(pk=match.pk)


def test_changelist_change_and_search_pages_render(admin_client, running_match):
    changelist = reverse("admin:games_match_changelist")
    assert admin_client.get(changelist).status_code == 200
    assert admin_client.get(changelist, {"status": "active", "game": "hansa"}).status_code == 200
    found = admin_client.get(changelist, {"q": running_match.created_by.username})
    assert reverse("admin:games_match_change", args=[running_match.pk]) in \
        found.content.decode()
    page = admin_client.get(reverse("admin:games_match_change", args=[running_match.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert TEST_SEED not in html  # hidden until the end
    # The move log inline shows the moves as a spectator reads them: the cards each seat
    # kept (a secret choice, ruling Q6) are not on the page while the match runs.
    state = running_match.state
    assert Move.objects.filter(match=running_match).count() == 2
    for card in state["hands"][0] + state["hands"][1]:
        assert card not in html, card


def test_replay_page_steps_through_plies_without_leaking(admin_client, running_match):
    url = reverse("admin:games_match_replay", args=[running_match.pk])
    state = running_match.state
    for ply in range(running_match.ply + 1):
        page = admin_client.get(url, {"ply": ply})
        assert page.status_code == 200
        html = page.content.decode()
        assert f"ply {ply} / {running_match.ply}" in html
        assert TEST_SEED not in html
        for card in state["hands"][0] + state["hands"][1] + state["normal_deck"]:
            assert card not in html, card
    assert admin_client.get(url, {"ply": "junk"}).status_code == 200


def test_finished_match_replay_shows_the_full_state(admin_client):
    with eager_celery():
        match = match_services.create_match(user=None, game="han", players=2, take_seat=False,
                                            seed=TEST_SEED, bot_seats={0: "random", 1: "random"})
    # not transactional: on-commit follow-ups did not run, so drive the bots here
    match = Match.objects.get(pk=match.pk)
    while match.status == MatchStatus.ACTIVE:
        engine = get_engine("han")
        seat = engine.to_act(engine.from_json(match.state))[0]
        bot_moves.play_bot_turn(match_id=match.pk, seat=seat, ply=match.ply)
        match = Match.objects.get(pk=match.pk)
    scoring.score_match(match_id=match.pk)
    page = admin_client.get(reverse("admin:games_match_replay", args=[match.pk]))
    assert page.status_code == 200 and "Full state" in page.content.decode()
    assert TEST_SEED in page.content.decode()  # the seed is public after the end


def test_admin_actions_call_the_services(admin_client, running_match):
    changelist = reverse("admin:games_match_changelist")
    form = admin_client.post(changelist, {"action": "hand_seat_to_bot",
                                          "_selected_action": [running_match.pk]})
    assert form.status_code == 200 and b"bot_kind" in form.content
    admin_client.post(changelist, {"action": "hand_seat_to_bot", "apply": "1",
                                   "_selected_action": [running_match.pk],
                                   "position": 1, "bot_kind": "greedy"})
    assert Seat.objects.get(match=running_match, position=1).bot_kind == "greedy"

    admin_client.post(changelist, {"action": "abort_selected",
                                   "_selected_action": [running_match.pk]})
    assert Match.objects.get(pk=running_match.pk).status == MatchStatus.ABORTED
    moves = Move.objects.filter(match=running_match).count()
    assert moves == running_match.ply
