"""A player's right to leave over REST and GraphQL (issue 25): ``DELETE /api/v1/me`` with
its password (400 / 403 codes, throttled, wrong passwords held back as failed logins), the
token dead at once afterwards; ``GET /api/v1/me/export`` (and GraphQL ``myData``) giving
the person everything, their private matches included, nothing hidden of others, and no
way to ask for another person's."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from games.lobby import services as lobby
from games.matches import selectors
from games.matches import services as match_services
from games.matches.models import Match, MatchStatus
from tests.conftest import DEFAULT_PASSWORD
from tests.games.graphql.support import gql
from tests.games.support import (
    API,
    TEST_SEED,
    assert_api_error,
    assert_no_leak,
    eager_celery,
    known_card_ids,
    match_url,
    play_to_end,
)
from tests.infra.test_throttles import limits  # noqa: F401

pytestmark = pytest.mark.django_db(transaction=True)

ME, EXPORT = f"{API}/me", f"{API}/me/export"
DELETE_ACCOUNT = """mutation($password: String!) {
  deleteAccount(password: $password) { deleted errors { code message } } }"""
MY_DATA = "query { myData }"


def _client(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


# -- DELETE /api/v1/me --------------------------------------------------------------------------
@pytest.mark.parametrize("body, status, code", [
    ({}, 400, "password_required"),
    ({"password": ""}, 400, "password_required"),
    ({"password": "not-the-password"}, 403, "wrong_password"),
    ({"password": 12345}, 403, "wrong_password"),  # a number read as its text, still wrong
    ({"password": None}, 400, "invalid_input"),
])
def test_erasing_needs_the_password_and_a_refusal_writes_nothing(make_user, body, status,
                                                                code):
    person = make_user("keeps_account", email="k@example.org")
    client = _client(person)
    assert_api_error(client.delete(ME, body, format="json"), status, code)
    row = User.objects.get(pk=person.pk)
    assert (row.username, row.email, row.is_active) == ("keeps_account", "k@example.org", True)
    assert client.get(ME).status_code == 200


def test_erasing_needs_a_signed_in_caller(api_client):
    assert_api_error(api_client.delete(ME, {"password": "x"}, format="json"), 401,
                     "not_authenticated")


def test_after_erasing_the_token_is_dead_and_the_name_gone(make_user):
    person = make_user("about_to_go")
    client = _client(person)
    response = client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 204, response.content
    assert_api_error(client.get(ME), 401, "not_authenticated")
    assert_api_error(client.get(EXPORT), 401, "not_authenticated")
    assert User.objects.get(pk=person.pk).username.startswith("deleted-")
    assert not User.objects.filter(username="about_to_go").exists()
    # the name is free again for somebody new (the tombstone's is not)
    response = APIClient().post(f"{API}/auth/register/", {
        "username": "about_to_go", "password": "a-long-enough-pass-9"}, format="json")
    assert response.status_code == 201


def test_erasing_is_throttled_as_an_auth_action(make_user, limits):  # noqa: F811
    limits(auth="2/min")
    client = _client(make_user())
    for _ in range(2):
        assert client.delete(ME, {"password": "wrong"}, format="json").status_code == 403
    response = client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json")
    assert response.status_code == 429 and response.json()["error"]["code"] == "throttled"
    assert client.get(ME).status_code == 200  # reads are not the auth scope's


def test_wrong_passwords_are_held_back_as_failed_logins(make_user):
    client = _client(make_user())
    for _ in range(4):
        assert client.delete(ME, {"password": "guess"}, format="json").status_code == 403
    error = assert_api_error(client.delete(ME, {"password": DEFAULT_PASSWORD}, format="json"),
                             429, "throttled")
    assert error["details"]["reason"] == "failed_logins"


# -- GET /api/v1/me/export ----------------------------------------------------------------------
def test_the_export_is_a_download_of_everything_of_the_person(make_user):
    alice, bob = make_user("alice_exports", email="alice@example.org"), make_user()
    with eager_celery():
        private, _code = lobby.create_private_match(user=alice, game="han", players=2,
                                                    bot_seats={1: "greedy"})
        play_to_end(private.pk, {0: alice})
    waiting = match_services.create_match(user=bob, game="hansa", players=3)
    lobby.invite(user=bob, match_id=waiting.pk, usernames=["alice_exports"])

    response = _client(alice).get(EXPORT)
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert response["Cache-Control"] == "no-store"
    body = response.json()
    assert body["format"] == "han-hansa-personal-data"
    assert body["profile"]["username"] == "alice_exports"
    assert body["profile"]["email"] == "alice@example.org"
    assert [record["match"]["id"] for record in body["records"]] == [private.pk]
    assert body["records"][0] == APIClient().get(match_url(private.pk, "record/")).json()
    assert {rating["game"] for rating in body["ratings"]} == {"han"}
    assert [change["match_id"] for change in body["rating_history"]] == [private.pk]
    assert [row["match_id"] for row in body["invitations"]] == [waiting.pk]
    verdict = APIClient().post(f"{API}/records/verify/", body["records"][0], format="json")
    assert verdict.json()["valid"] is True


def test_records_come_in_pages_when_asked(make_user):
    person = make_user()
    ids = []
    with eager_celery():
        for _ in range(3):
            match = match_services.create_match(user=person, game="han", players=2,
                                                creator_seat=0, bot_seats={1: "random"})
            play_to_end(match.pk, {0: person})
            ids.append(match.pk)
    client = _client(person)
    assert [r["match"]["id"] for r in client.get(EXPORT).json()["records"]] == ids
    first = client.get(EXPORT + "?records_limit=2").json()
    assert [r["match"]["id"] for r in first["records"]] == ids[:2]
    assert first["records_next_after"] == ids[1]
    rest = client.get(EXPORT + f"?records_limit=2&records_after={ids[1]}").json()
    assert [r["match"]["id"] for r in rest["records"]] == ids[2:]
    assert rest["records_next_after"] is None
    token = Token.objects.get(user=person).key
    page = gql("query($a: ID) { myData(recordsLimit: 1, recordsAfter: $a) }",
               {"a": str(ids[0])}, token=token)["data"]["myData"]
    assert [r["match"]["id"] for r in page["records"]] == [ids[1]]
    for query in ("?records_limit=0", "?records_limit=x", "?records_after=-1"):
        assert_api_error(client.get(EXPORT + query), 400, "invalid_request")
    too_many = gql("{ myData(recordsLimit: 11) }", token=token)
    assert too_many["errors"][0]["extensions"]["code"] == "invalid_request"


def test_nobody_exports_another_person_s_data(make_user, api_client):
    alice, bob = make_user("alice_private", email="a@example.org"), make_user()
    assert_api_error(api_client.get(EXPORT), 401, "not_authenticated")
    for query in ("?user=alice_private", "?username=alice_private", f"?id={alice.pk}"):
        assert_api_error(_client(bob).get(EXPORT + query), 400, "invalid_request")
    body = _client(bob).get(EXPORT).json()
    assert "alice_private" not in json.dumps(body) and "a@example.org" not in json.dumps(body)
    assert gql(MY_DATA)["errors"][0]["extensions"]["code"] == "not_authenticated"


def test_the_export_shows_no_other_seat_s_hidden_cards(make_user):
    """A running Hansa match: the export holds the person's own view only."""
    alice, bob, carol = make_user(), make_user(), make_user()
    with eager_celery():
        match = match_services.create_match(user=alice, game="hansa", players=3,
                                            creator_seat=0, seed=TEST_SEED)
        match_services.join_match(user=bob, match_id=match.pk)
        match_services.join_match(user=carol, match_id=match.pk)
        people = {0: alice, 1: bob, 2: carol}
        for _ in range(8):  # a few decisions in: rows dealt, cards kept and stored
            match = selectors.get_match(match.pk)
            seat = selectors.to_act_of(match)[0]
            move = selectors.legal_moves_for(match, people[seat])["moves"][0]
            match_services.submit_move(match_id=match.pk, user=people[seat], move=move)
    match = Match.objects.get(pk=match.pk)
    assert match.status == MatchStatus.ACTIVE
    for position, person in enumerate((alice, bob, carol)):
        body = _client(person).get(EXPORT).json()
        [row] = body["matches"]
        assert row["your_seat"] == position and row["your_view"]
        assert_no_leak(body, game="hansa", state=match.state, seed=TEST_SEED, reader=position,
                       known=known_card_ids(match, match.ply, position),
                       where=f"export of seat {position}")


# -- GraphQL ----------------------------------------------------------------------------------
def test_graphql_my_data_is_the_rest_export(make_user):
    person = make_user()
    token = Token.objects.get_or_create(user=person)[0].key
    rest = _client(person).get(EXPORT).json()
    graphql = gql(MY_DATA, token=token)["data"]["myData"]
    rest.pop("exported_at"), graphql.pop("exported_at")
    assert graphql == rest


@pytest.mark.parametrize("password, code", [("", "password_required"),
                                            ("not-it", "wrong_password")])
def test_graphql_delete_account_refusals(make_user, password, code):
    person = make_user("gql_stays")
    token = Token.objects.get_or_create(user=person)[0].key
    payload = gql(DELETE_ACCOUNT, {"password": password}, token=token)["data"]["deleteAccount"]
    assert payload["deleted"] is False and [e["code"] for e in payload["errors"]] == [code]
    assert User.objects.get(pk=person.pk).username == "gql_stays"


def test_graphql_delete_account(make_user):
    person = make_user("gql_goes")
    token = Token.objects.get_or_create(user=person)[0].key
    anonymous = gql(DELETE_ACCOUNT, {"password": DEFAULT_PASSWORD})["data"]["deleteAccount"]
    assert [error["code"] for error in anonymous["errors"]] == ["not_authenticated"]
    payload = gql(DELETE_ACCOUNT, {"password": DEFAULT_PASSWORD}, token=token)
    assert payload["data"]["deleteAccount"] == {"deleted": True, "errors": []}
    assert User.objects.get(pk=person.pk).username.startswith("deleted-")
    response = Client().post("/graphql/", data=json.dumps({"query": "{ me { username } }"}),
                             content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}")
    assert response.status_code == 401
