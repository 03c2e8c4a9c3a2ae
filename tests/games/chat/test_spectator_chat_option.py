"""The match option ``players_read_spectator_chat`` (docs/chat.md "Room rules per match"):
the creator chooses on every path that creates a match (REST, GraphQL, private matches,
rematches inherit it); it defaults to on for a listed match and off for a private one; a
value that is no boolean is a 400 that writes nothing; the match shows it; and the rooms
follow it (REST here; the pushes: test_spectator_chat_option_pushes.py)."""

from __future__ import annotations

import pytest

from games.chat.models import ChatMessage
from games.lobby import services as lobby
from games.lobby.models import Invitation, PrivateMatch
from games.matches import services as match_services
from tests.games.chat.support import chat_url
from tests.games.graphql.support import gql, make_player
from tests.games.support import (
    API,
    assert_api_error,
    eager_celery,
    match_url,
    play_to_end,
    row_counts,
)

pytestmark = pytest.mark.django_db

FIELD = "players_read_spectator_chat"


def _create(client, path="matches/", **body):
    return client.post(f"{API}/{path}", {"game": "han", "players": 2, **body}, format="json")


def _sit(user, match_id):
    with eager_celery():
        match_services.join_match(user=user, match_id=match_id)


@pytest.mark.parametrize(("path", "given", "shown"), [
    ("matches/", None, True),  # a listed match: on by default
    ("matches/", False, False),
    ("matches/", True, True),
    ("private-matches/", None, False),  # a private match: off by default
    ("private-matches/", True, True),
    ("private-matches/", False, False),
])
def test_the_creator_chooses_and_the_match_shows_it(make_user, make_auth_client, path,
                                                     given, shown):
    client = make_auth_client(make_user())
    body = {} if given is None else {FIELD: given}
    created = _create(client, path, **body)
    assert created.status_code == 201, created.content
    assert created.json()[FIELD] is shown
    match_id = created.json()["id"]
    assert client.get(match_url(match_id)).json()[FIELD] is shown
    listed = client.get(f"{API}/matches/", {"mine": "true"}).json()["results"]
    assert [row[FIELD] for row in listed if row["id"] == match_id] == [shown]


@pytest.mark.parametrize("path", ["matches/", "private-matches/"])
@pytest.mark.parametrize("bad", ["true", "yes", 1, 0, [], {}, {"on": True}])
def test_a_value_that_is_no_boolean_is_refused_and_writes_nothing(make_user, make_auth_client,
                                                                  path, bad):
    client = make_auth_client(make_user())
    before = (row_counts(), PrivateMatch.objects.count(), Invitation.objects.count())
    error = assert_api_error(_create(client, path, **{FIELD: bad}), 400, "invalid_request")
    assert error["details"]["field"] == FIELD
    assert (row_counts(), PrivateMatch.objects.count(), Invitation.objects.count()) == before


def test_on_for_a_private_match_lets_its_players_read_the_spectators_room(
        make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    match, _code = lobby.create_private_match(user=alice, game="han", players=2,
                                              players_read_spectator_chat=True)
    _sit(bob, match.pk)
    spectator, player = make_auth_client(carol), make_auth_client(alice)
    sent = spectator.post(chat_url(match.pk, "spectators"), {"text": "nice"}, format="json")
    assert sent.status_code == 201
    page = player.get(chat_url(match.pk, "spectators"))
    assert page.status_code == 200
    assert [row["text"] for row in page.json()["results"]] == ["nice"]
    answer = player.post(chat_url(match.pk, "spectators"), {"text": "thanks"}, format="json")
    assert answer.status_code == 201


def test_off_for_a_listed_match_keeps_its_players_out_of_the_spectators_room(
        make_user, make_auth_client):
    alice, bob, carol = make_user(), make_user(), make_user()
    created = _create(make_auth_client(alice), **{FIELD: False, "creator_seat": 0})
    match_id = created.json()["id"]
    _sit(bob, match_id)
    spectator, player = make_auth_client(carol), make_auth_client(bob)
    sent = spectator.post(chat_url(match_id, "spectators"), {"text": "bob go north"},
                          format="json")
    assert sent.status_code == 201
    refused = player.get(chat_url(match_id, "spectators"))
    assert_api_error(refused, 403, "chat_room_not_readable")
    assert "north" not in refused.content.decode()
    assert_api_error(player.post(chat_url(match_id, "spectators"), {"text": "hi"},
                                 format="json"), 403, "chat_room_not_writable")
    assert ChatMessage.objects.filter(room__match_id=match_id).count() == 1


@pytest.mark.django_db(transaction=True)  # the match is scored on its commit
def test_a_rematch_keeps_the_original_choice(make_user, make_auth_client):
    alice, bob = make_user(), make_user()
    original = _create(make_auth_client(alice), **{FIELD: False, "creator_seat": 0}).json()
    _sit(bob, original["id"])
    play_to_end(original["id"], {0: alice, 1: bob})
    rematch = make_auth_client(bob).post(match_url(original["id"], "rematch/"))
    assert rematch.status_code == 201
    assert rematch.json()[FIELD] is False  # private, and off as its original was


GQL_CREATE = """mutation Create($on: Boolean) {
  createMatch(game: "han", players: 2, playersReadSpectatorChat: $on) {
    match { id playersReadSpectatorChat } errors { code field } } }"""
GQL_PRIVATE = """mutation Create($on: Boolean) {
  createPrivateMatch(game: "han", players: 2, playersReadSpectatorChat: $on) {
    match { id playersReadSpectatorChat } errors { code field } } }"""


@pytest.mark.parametrize(("mutation", "given", "shown"), [
    ("createMatch", None, True), ("createMatch", False, False),
    ("createPrivateMatch", None, False), ("createPrivateMatch", True, True),
])
def test_graphql_creation_takes_the_option(make_user, mutation, given, shown):
    player = make_player(make_user)
    query = GQL_CREATE if mutation == "createMatch" else GQL_PRIVATE
    body = gql(query, {"on": given}, token=player.token)
    payload = body["data"][mutation]
    assert payload["errors"] == []
    assert payload["match"]["playersReadSpectatorChat"] is shown


@pytest.mark.parametrize("query", [GQL_CREATE, GQL_PRIVATE])
def test_graphql_refuses_a_value_that_is_no_boolean_and_writes_nothing(make_user, query):
    player = make_player(make_user)
    before = row_counts()
    body = gql(query, {"on": "yes"}, token=player.token)
    assert body.get("data") is None and body["errors"]
    assert body["errors"][0]["extensions"]["code"] == "graphql_validation_failed"
    assert "Boolean" in body["errors"][0]["message"]
    assert row_counts() == before
