"""The plugin promise: a third game defined only here (tests/plugin/nim_engine.py) and
registered through the EXTRA_GAMES setting is served end to end by games/ unchanged:
catalogue with its move schema (REST, GraphQL, OpenAPI), a match over REST and GraphQL,
events redacted by its own hook, replay, result, the admin replay page, a random bot."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from games.matches import bot_moves, scoring, selectors, services
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from rules import available_games, get_engine
from tests.games.graphql.support import gql, make_player
from tests.games.support import API, match_url

pytestmark = pytest.mark.django_db

NIM = {"nim": "tests.plugin.nim_engine:NimEngine"}


@pytest.fixture
def nim(settings):
    settings.EXTRA_GAMES = NIM  # the registry follows the setting (games/apps.py)
    assert "nim" in available_games()
    yield get_engine("nim")


def test_the_setting_registers_and_unregisters(settings):
    assert "nim" not in available_games()
    settings.EXTRA_GAMES = NIM
    assert available_games() == ["han", "hansa", "nim"]
    settings.EXTRA_GAMES = {}
    assert "nim" not in available_games()
    with pytest.raises(ValueError):
        settings.EXTRA_GAMES = {"han": "tests.plugin.nim_engine:NimEngine"}


def test_catalogue_and_openapi_serve_its_move_schema(nim, api_client):
    assert [game["game"] for game in api_client.get(f"{API}/games/").json()["results"]] == [
        "han", "hansa", "nim"]
    entry = api_client.get(f"{API}/games/nim/").json()
    assert entry["move_schema"] == nim.move_schema() and entry["drawing"]
    data = gql("""{ game(game: "nim") { title moveSchema } }""")["data"]["game"]
    assert data == {"title": "Nim (test plugin)", "moveSchema": nim.move_schema()}
    schema = api_client.get(f"{API}/schema/?format=json").json()["components"]["schemas"]
    assert {"$ref": "#/components/schemas/NimMove"} in schema["Move"]["oneOf"]
    assert schema["NimTakeMove"]["properties"]["count"] == {"type": "integer", "enum": [1, 2]}


def _play_rest(clients, match_id):
    while True:
        detail = clients[0].get(match_url(match_id)).json()
        if detail["status"] != "active":
            return detail
        seat = detail["to_act"][0]
        legal = clients[seat].get(match_url(match_id, "legal-moves/")).json()
        response = clients[seat].post(match_url(match_id, "moves/"),
                                      {"move": legal["moves"][-1], "expected_ply": legal["ply"]},
                                      format="json")
        assert response.status_code == 201, response.json()


def test_a_match_over_rest_with_events_replay_result(nim, make_user, make_auth_client,
                                                     api_client):
    users = [make_user(), make_user()]
    clients = [make_auth_client(user) for user in users]
    created = clients[0].post(f"{API}/matches/", {"game": "nim", "players": 2,
                                                  "options": {"stones": 5}}, format="json")
    assert created.status_code == 201, created.json()
    match_id = created.json()["id"]
    assert clients[1].post(match_url(match_id, "join/"), {}, format="json").status_code == 200
    # the first move: its secret (the mover's lucky number) is for the mover only
    legal = clients[0].get(match_url(match_id, "legal-moves/")).json()
    assert legal["moves"] == [{"type": "take", "count": 1}, {"type": "take", "count": 2}]
    body = clients[0].post(match_url(match_id, "moves/"), {"move": legal["moves"][0]},
                           format="json").json()
    assert "lucky" in body["events"][0]
    for reader in (clients[1], api_client):
        took = reader.get(match_url(match_id, "events/?since=0")).json()["moves"][0]["events"]
        assert took[0] == {"type": "took", "seat": 0, "count": 1, "left": 4}
    assert "lucky" in clients[0].get(match_url(match_id, "events/")).json()["moves"][0][
        "events"][0]
    assert clients[1].get(f"{API}/matches/?my_turn=true").json()["count"] == 1
    detail = _play_rest(clients, match_id)
    assert detail["status"] == "scoring"
    scoring.score_match(match_id=match_id)
    result = api_client.get(match_url(match_id, "result/")).json()
    assert result["end_reason"] == "last_stone_taken" and sorted(result["ranks"])[0] == 1
    replay = api_client.get(match_url(match_id, "replay/")).json()
    assert replay["ended"] and replay["view"]["stones"] == 0 and len(replay["views"]) == 2
    assert replay["move"]["events"][-1]["type"] == "game_over"


def test_a_match_over_graphql(nim, make_user):
    ann, bob = make_player(make_user), make_player(make_user)
    created = gql("""mutation { createMatch(game: "nim", players: 2) {
                        match { id } errors { code } } }""", token=ann.token)["data"]
    match_id = created["createMatch"]["match"]["id"]
    gql("""mutation($id: ID!) { joinMatch(matchId: $id) { errors { code } } }""",
        {"id": match_id}, token=bob.token)
    submit = """mutation($id: ID!, $move: JSON!, $ply: Int) {
        submitMove(matchId: $id, move: $move, expectedPly: $ply) {
            move { ply events } errors { code } } }"""
    landed = gql(submit, {"id": match_id, "move": {"type": "take", "count": 2}, "ply": 0},
                 token=ann.token)["data"]["submitMove"]
    assert landed["errors"] == [] and landed["move"]["events"][0]["count"] == 2
    refused = gql(submit, {"id": match_id, "move": {"type": "take", "count": 3}},
                  token=bob.token)["data"]["submitMove"]
    assert [error["code"] for error in refused["errors"]] == ["invalid_count"]
    seen = gql("""query($id: ID!) { match(id: $id) { toAct log { events } } }""",
               {"id": match_id}, token=bob.token)["data"]["match"]
    assert seen["toAct"] == [1] and "lucky" not in seen["log"][0]["events"][0]


def test_a_random_bot_plays_it_and_the_admin_replays_it(nim, make_user):
    human = make_user()
    match = match_services.create_match(user=human, game="nim", players=2,
                                        bot_seats={1: "random"}, seed="plugin-seed")
    match = Match.objects.get(pk=match.pk)
    while match.status == MatchStatus.ACTIVE:
        seat = selectors.to_act_of(match)[0]
        if seat == 0:
            move = selectors.legal_moves_for(selectors.get_match(match.pk), human)["moves"][0]
            services.submit_move(match_id=match.pk, user=human, move=move)
        else:  # the bot's turn (its task did not run: no on-commit in this test)
            assert bot_moves.play_bot_turn(match_id=match.pk, seat=1, ply=match.ply)
        match = Match.objects.get(pk=match.pk)
    assert match.moves.filter(seat=1).exists()
    admin = Client()
    admin.force_login(make_user(is_staff=True, is_superuser=True))
    for ply in (0, match.ply):
        page = admin.get(reverse("admin:games_match_replay", args=[match.pk]), {"ply": ply})
        assert page.status_code == 200
