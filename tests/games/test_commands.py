"""`manage.py play_bots` and the demo matches of `manage.py seed_dev`."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from games.management.demo import seed_demo_matches
from games.matches.models import Match, Result
from games.matches.replay import replay_state
from rules import get_engine

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


@pytest.mark.parametrize("game, players, options", [
    ("han", 4, '{"map": "border-disputes", "variant": true}'),
    ("hansa", 2, "{}"),
])
def test_play_bots_plays_a_whole_match_and_prints_the_result(game, players, options):
    out = io.StringIO()
    call_command("play_bots", "--game", game, "--players", str(players), "--options", options,
                 "--bot", "greedy", stdout=out)
    match = Match.objects.get()
    assert match.status == "finished"
    text = out.getvalue()
    for result in Result.objects.filter(match=match):
        assert f"seat {result.seat} (greedy): {result.score} points, rank {result.rank}" in text
    assert f"seed {match.seed}" in text


def test_the_same_seed_and_bots_replay_the_same_game():
    for _ in range(2):
        call_command("play_bots", "--game", "han", "--players", "3", "--seed", "same",
                     "--bot", "random,greedy,random", stdout=io.StringIO())
    first, second = Match.objects.order_by("pk")
    assert first.seed == second.seed == "same"
    assert first.state == second.state and first.ply == second.ply


def test_play_bots_reports_bad_input_without_a_traceback():
    with pytest.raises(CommandError, match="invalid_player_count"):
        call_command("play_bots", "--game", "hansa", "--players", "9", stdout=io.StringIO())
    with pytest.raises(CommandError, match="unknown_game"):
        call_command("play_bots", "--game", "chess", stdout=io.StringIO())
    with pytest.raises(CommandError, match="not JSON"):
        call_command("play_bots", "--options", "{", stdout=io.StringIO())
    assert not Match.objects.exists()


def test_demo_matches_are_made_once(make_user):
    players = [make_user(), make_user()]
    lobby, running, finished = seed_demo_matches(players, write=lambda _line: None)
    assert (lobby.status, running.status) == ("open", "active")
    assert finished.status == "finished"
    engine = get_engine("han")
    assert engine.to_json(replay_state(finished)) == finished.state
    assert seed_demo_matches(players, write=lambda _line: None) == []
    assert Match.objects.count() == 3
