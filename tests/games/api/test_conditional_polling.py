"""Polling with If-None-Match (issue 14): the match, its events and the legal moves
answer 304 while nothing changed for this reader, from one narrow query that never
loads the state JSON; any change (a move, a seat taken, an abort) or another reader or
another query string gets a fresh 200."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token

from games.matches import services as match_services
from tests.games.api.test_query_budget import NOT_MODIFIED_BUDGET, _statements
from tests.games.support import TEST_SEED, assert_api_error, match_url

pytestmark = pytest.mark.django_db

POLLED = ("", "legal-moves/", "events/?since=0")


@pytest.fixture
def players(make_user, make_auth_client):
    first, second = make_user(), make_user()
    return (first, second), (make_auth_client(first), make_auth_client(second))


@pytest.fixture
def started(players):
    (first, second), clients = players
    match = match_services.create_match(user=first, game="han", players=2, seed=TEST_SEED)
    match_services.join_match(user=second, match_id=match.pk)
    return match.pk, clients


def _tag(client, url) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content
    assert response["Cache-Control"] == "private, no-cache"
    return response["ETag"]


@pytest.mark.parametrize("suffix", POLLED)
def test_an_unchanged_match_answers_304_from_a_narrow_query(started, suffix):
    match_id, (client, _other) = started
    url = match_url(match_id, suffix)
    tag = _tag(client, url)
    with CaptureQueriesContext(connection) as context:
        response = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 304
    assert response.content == b""
    assert response["ETag"] == tag
    statements = _statements(context)
    assert len(statements) <= NOT_MODIFIED_BUDGET, statements
    assert not any('"games_match"."state"' in sql for sql in statements), statements
    assert not any("games_seat" in sql or "games_move" in sql for sql in statements)
    # several tags, weak form: still recognised (If-None-Match compares weakly)
    assert client.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{tag}').status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_a_move_changes_every_tag(started):
    match_id, clients = started
    before = {(seat, suffix): _tag(clients[seat], match_url(match_id, suffix))
              for seat in (0, 1) for suffix in POLLED}
    mover = clients[clients[0].get(match_url(match_id)).json()["to_act"][0] == 1]
    legal = mover.get(match_url(match_id, "legal-moves/")).json()
    moved = mover.post(match_url(match_id, "moves/"),
                       {"move": legal["moves"][0], "expected_ply": legal["ply"]}, format="json")
    assert moved.status_code == 201
    for (seat, suffix), tag in before.items():
        response = clients[seat].get(match_url(match_id, suffix), HTTP_IF_NONE_MATCH=tag)
        assert response.status_code == 200, (seat, suffix)
        assert response["ETag"] != tag


def test_tags_belong_to_one_reader_and_one_query(started, api_client):
    match_id, (first, second) = started
    url = match_url(match_id)
    first_tag = _tag(first, url)
    # The other seat sees another view: the first seat's tag does not answer for it.
    assert second.get(url, HTTP_IF_NONE_MATCH=first_tag).status_code == 200
    assert api_client.get(url, HTTP_IF_NONE_MATCH=first_tag).status_code == 200
    spectator_tag = _tag(api_client, url)
    assert spectator_tag not in (first_tag, _tag(second, url))
    assert api_client.get(url, HTTP_IF_NONE_MATCH=spectator_tag).status_code == 304
    events_tag = _tag(first, match_url(match_id, "events/?since=0"))
    assert first.get(match_url(match_id, "events/?since=1"),
                     HTTP_IF_NONE_MATCH=events_tag).status_code != 304


def test_seats_taken_or_given_up_change_the_tag_of_an_open_match(players, make_user,
                                                                 make_auth_client):
    (first, _second), (client, _other) = players
    match = match_services.create_match(user=first, game="hansa", players=3, seed=TEST_SEED)
    url = match_url(match.pk)
    tag = _tag(client, url)
    joiner = make_user()
    match_services.join_match(user=joiner, match_id=match.pk)
    response = client.get(url, HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 200  # same ply 0, same status: the seats changed
    assert [seat["kind"] for seat in response.json()["seats"]] == ["human", "human", "open"]
    tag = response["ETag"]
    match_services.leave_match(user=joiner, match_id=match.pk)
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 200


def test_conditional_requests_are_still_authenticated_and_checked(started, players):
    match_id, (client, _other) = started
    tag = _tag(client, match_url(match_id))
    assert_api_error(client.get(match_url(987654321), HTTP_IF_NONE_MATCH=tag), 404,
                     "match_not_found")
    assert_api_error(client.get(match_url("nope"), HTTP_IF_NONE_MATCH="*"), 404,
                     "match_not_found")
    (first, _second), _clients = players
    Token.objects.filter(user=first).delete()  # revoked: refused at once, never a 304
    response = client.get(match_url(match_id), HTTP_IF_NONE_MATCH=tag)
    assert response.status_code == 401
