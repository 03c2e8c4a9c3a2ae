"""Read endpoints: the catalogue, the match list and its filters, the redacted log,
events for polling, and the OpenAPI schema with its examples."""

from __future__ import annotations

import pytest

from games.matches import services as match_services
from games.matches.models import Move
from rules import get_engine
from tests.games.support import API, match_url, play_human_turns

pytestmark = pytest.mark.django_db


def test_catalogue_lists_both_games_with_options_and_player_counts(api_client):
    games = api_client.get(f"{API}/games/").json()["results"]
    assert [game["game"] for game in games] == ["han", "hansa"]
    for game in games:
        described = get_engine(game["game"]).describe()
        assert game["players"] == described["players"]
        assert game["options"] == described["options"]
        assert game["bot_kinds"] == ["random", "greedy", "easy", "medium", "hard_v1", "hard"]
        levels = {level["kind"]: level for level in game["bot_levels"]}
        assert list(levels) == game["bot_kinds"]
        assert all(level["description"] for level in levels.values())
        assert levels["greedy"]["search"] is None
        budgets = [levels[kind]["search"]["iterations"] for kind in ("easy", "medium", "hard")]
        assert budgets == sorted(budgets) and len(set(budgets)) == 3
    han = api_client.get(f"{API}/games/han/").json()
    assert set(han["options"]["properties"]) == {"map", "variant"}
    assert han["maps"] == get_engine("han").describe()["maps"]  # board files, to draw the maps


def test_list_filters_and_pagination(make_user, make_auth_client, api_client):
    ann, bob = make_user(), make_user()
    open_han = match_services.create_match(user=ann, game="han", players=3)
    full_hansa = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=full_hansa.pk)
    bobs = match_services.create_match(user=bob, game="hansa", players=3)

    def ids(client, query=""):
        body = client.get(f"{API}/matches/?{query}").json()
        return [row["id"] for row in body["results"]]

    assert ids(api_client) == [bobs.pk, full_hansa.pk, open_han.pk]  # newest first
    assert ids(api_client, "game=han") == [open_han.pk]
    assert ids(api_client, "status=active") == [full_hansa.pk]
    assert ids(api_client, "open=true") == [bobs.pk, open_han.pk]
    assert ids(api_client, "open=false") == [full_hansa.pk]
    ann_client = make_auth_client(ann)
    assert ids(ann_client, "mine=true") == [full_hansa.pk, open_han.pk]
    assert ids(api_client, "mine=true") == []  # anonymous: nothing is "mine"
    page = api_client.get(f"{API}/matches/?limit=2&offset=1").json()
    assert page["count"] == 3 and [row["id"] for row in page["results"]] == [
        full_hansa.pk, open_han.pk]
    row = ann_client.get(f"{API}/matches/?game=hansa&status=active").json()["results"][0]
    assert row["your_seat"] == 0 and row["seed"] is None and "view" not in row


def test_hansa_secret_choices_are_redacted_in_the_log_until_the_end(make_user, make_auth_client,
                                                                    api_client):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="hansa", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    ann_client, bob_client = make_auth_client(ann), make_auth_client(bob)
    legal = ann_client.get(match_url(match.pk, "legal-moves/")).json()["moves"]
    keep = next(move for move in legal if move["type"] == "keep")
    assert ann_client.post(match_url(match.pk, "moves/"), {"move": keep},
                           format="json").status_code == 201

    assert ann_client.get(match_url(match.pk, "moves/")).json()["results"][0]["move"] == keep
    for reader in (bob_client, api_client):
        logged = reader.get(match_url(match.pk, "moves/")).json()["results"][0]
        assert logged["move"] == {"type": "keep"} and logged["seat"] == 0
        events = reader.get(match_url(match.pk, "events/?since=0")).json()
        assert events["moves"][0]["move"] == {"type": "keep"}

    # after the first move only an admin may abort
    admin = make_user(is_staff=True, is_superuser=True)
    match_services.abort_match(user=admin, match_id=match.pk)  # after the end: the whole log
    assert api_client.get(match_url(match.pk, "moves/")).json()["results"][0]["move"] == keep


def test_events_since_a_ply(make_user, make_auth_client):
    ann, bob = make_user(), make_user()
    match = match_services.create_match(user=ann, game="han", players=2)
    match_services.join_match(user=bob, match_id=match.pk)
    clients = {0: make_auth_client(ann), 1: make_auth_client(bob)}
    assert play_human_turns(clients, match.pk, max_moves=3, must_end=False) == 3
    events = clients[1].get(match_url(match.pk, "events/?since=1")).json()
    assert events["since"] == 1 and events["ply"] == 3 and events["status"] == "active"
    assert [move["ply"] for move in events["moves"]] == [1, 2]
    assert events["view"] == clients[1].get(match_url(match.pk)).json()["view"]
    assert clients[1].get(match_url(match.pk, "events/?since=3")).json()["moves"] == []
    assert Move.objects.filter(match=match).count() == 3


def test_openapi_schema_documents_every_endpoint_with_examples(api_client):
    schema = api_client.get(f"{API}/schema/?format=json").json()
    paths = schema["paths"]
    for suffix in ("join/", "leave/", "start/", "abort/", "legal-moves/", "moves/", "replay/",
                   "result/", "events/"):
        assert f"/api/v1/matches/{{match_id}}/{suffix}" in paths
    assert "/api/v1/games/{game}/" in paths and "/api/v1/matches/" in paths
    create = paths["/api/v1/matches/"]["post"]
    assert create["requestBody"]["content"]["application/json"]["examples"]
    assert "400" in create["responses"] and "examples" in \
        create["responses"]["400"]["content"]["application/json"]
    submit = paths["/api/v1/matches/{match_id}/moves/"]["post"]
    assert set(submit["responses"]) >= {"201", "400", "409"}
    assert submit["responses"]["201"]["content"]["application/json"]["examples"]
