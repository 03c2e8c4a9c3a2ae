"""Private matches, invitations and rematches: a private match shows in no public list or
query; only its code or an invitation seats you; invitations are accepted or declined;
a rematch repeats the game, options and seats and starts when everyone accepted; bad
input is a 4xx that writes nothing."""

from __future__ import annotations

import json

import pytest

from games.lobby.models import Invitation, PrivateMatch, Rematch
from games.matches.models import Match, MatchStatus
from tests.games.graphql.support import gql, make_player
from tests.games.support import (
    API,
    assert_api_error,
    eager_celery,
    match_url,
    play_to_end,
    row_counts,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def people(make_user, make_auth_client):
    users = [make_user() for _ in range(4)]
    return users, [make_auth_client(user) for user in users]


def _private(client, **body):
    response = client.post(f"{API}/private-matches/", {"game": "han", "players": 3, **body},
                           format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def _listed_ids(client, query=""):
    response = client.get(f"{API}/matches/{query}")
    assert response.status_code == 200
    return {row["id"] for row in response.json()["results"]}


def test_a_private_match_is_in_no_public_list_or_query(people, api_client, make_user):
    (alice, bob, carol, dave), (a, b, c, d) = people
    public = a.post(f"{API}/matches/", {"game": "han", "players": 3}, format="json").json()
    private = _private(a, invite=[bob.username])
    assert private["lobby"]["private"] is True and private["lobby"]["invite_code"]
    for client in (api_client, c, d):  # strangers
        for query in ("", "?open=true", "?status=open", "?game=han", "?mine=true"):
            assert private["id"] not in _listed_ids(client, query)
        assert public["id"] in _listed_ids(client)
    for client in (a, b):  # the creator, the invitee
        assert private["id"] in _listed_ids(client, "?open=true")
    stranger = make_player(make_user)
    body = gql("{ matches(limit: 100) { results { id } } }", token=stranger.token)
    assert str(private["id"]) not in {row["id"] for row in body["data"]["matches"]["results"]}
    body = gql("{ matches(open: true) { results { id } } }")
    assert str(private["id"]) not in {row["id"] for row in body["data"]["matches"]["results"]}
    # nor in the creator's profile as others see it
    profile = api_client.get(f"{API}/users/{alice.username}/").json()
    assert [m["id"] for m in profile["recent_matches"]] == [public["id"]]
    own = a.get(f"{API}/users/{alice.username}/").json()
    assert {m["id"] for m in own["recent_matches"]} == {public["id"], private["id"]}
    # the code is for its players only
    assert c.get(match_url(private["id"], "lobby/")).json()["invite_code"] is None
    assert api_client.get(match_url(private["id"], "lobby/")).json()["invite_code"] is None
    assert code_not_in(private["lobby"]["invite_code"],
                       c.get(match_url(private["id"])).json(),
                       api_client.get(f"{API}/matches/").json())


def code_not_in(code, *bodies) -> bool:
    return all(code not in json.dumps(body) for body in bodies)


def test_a_private_match_seats_only_code_holders_and_the_invited(people):
    (alice, bob, carol, dave), (a, b, c, d) = people
    private = _private(a, invite=[bob.username])
    code = private["lobby"]["invite_code"]
    before = row_counts()
    assert_api_error(d.post(match_url(private["id"], "join/"), {}, format="json"), 403,
                     "invitation_required")
    body = gql("mutation($id: ID!) { joinMatch(matchId: $id) { errors { code } } }",
               {"id": private["id"]}, token=make_token(dave))
    assert body["data"]["joinMatch"]["errors"] == [{"code": "invitation_required"}]
    assert_api_error(d.post(f"{API}/private-matches/join/", {"invite_code": "nope"},
                            format="json"), 404, "invitation_not_found")
    assert_api_error(d.post(f"{API}/private-matches/join/", {"invite_code": 12},
                            format="json"), 400, "invalid_request")
    assert_api_error(d.post(f"{API}/private-matches/join/", {"code": code}, format="json"),
                     400, "invalid_input")
    assert row_counts() == before
    joined = c.post(f"{API}/private-matches/join/", {"invite_code": code}, format="json")
    assert joined.status_code == 200 and joined.json()["your_seat"] == 1
    invitation = b.get(f"{API}/invitations/?status=pending").json()["results"]
    assert [row["match_id"] for row in invitation] == [private["id"]]
    assert invitation[0]["inviter"] == alice.username
    accepted = b.post(f"{API}/invitations/{invitation[0]['id']}/accept/")
    assert accepted.status_code == 200
    assert accepted.json()["status"] == "active"  # the last seat started it
    assert_api_error(b.post(f"{API}/invitations/{invitation[0]['id']}/accept/"), 409,
                     "invitation_closed")


def make_token(user) -> str:
    from rest_framework.authtoken.models import Token

    return Token.objects.get_or_create(user=user)[0].key


def test_invitations_to_a_public_match_accept_and_decline(people):
    (alice, bob, carol, dave), (a, b, c, d) = people
    match = a.post(f"{API}/matches/", {"game": "han", "players": 3}, format="json").json()
    sent = a.post(match_url(match["id"], "invitations/"),
                  {"usernames": [bob.username, carol.username]}, format="json")
    assert sent.status_code == 201 and [row["invitee"] for row in sent.json()["results"]] == [
        bob.username, carol.username]
    bob_invite, carol_invite = sent.json()["results"]
    # someone else's invitation is not yours to answer
    assert_api_error(d.post(f"{API}/invitations/{bob_invite['id']}/accept/"), 404,
                     "invitation_not_found")
    declined = c.post(f"{API}/invitations/{carol_invite['id']}/decline/")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    assert_api_error(c.post(f"{API}/invitations/{carol_invite['id']}/accept/"), 409,
                     "invitation_closed")
    assert b.post(f"{API}/invitations/{bob_invite['id']}/accept/").status_code == 200
    assert Match.objects.get(pk=match["id"]).seats.count() == 2
    # GraphQL sees the same invitations
    body = gql("{ myInvitations { matchId status inviter } }", token=make_token(carol))
    assert body["data"]["myInvitations"] == [
        {"matchId": str(match["id"]), "status": "declined", "inviter": alice.username}]


def test_rematch_repeats_game_options_and_seats_and_starts_when_all_accept(people):
    (alice, bob, _carol, dave), (a, b, _c, d) = people
    with eager_celery():
        original = a.post(f"{API}/matches/", {
            "game": "han", "players": 3, "options": {"map": "border-disputes",
                                                     "variant": True},
            "bot_seats": {"1": "greedy"}, "creator_seat": 2,
            "time_control": {"preset": "turn-based-3d", "timeout_policy": "forfeit"}},
            format="json").json()
        b.post(match_url(original["id"], "join/"), {}, format="json")
    play_to_end(original["id"], {2: alice, 0: bob})
    assert_api_error(d.post(match_url(original["id"], "rematch/")), 403, "not_seated")
    proposed = b.post(match_url(original["id"], "rematch/"))
    assert proposed.status_code == 201
    rematch = proposed.json()
    assert (rematch["game"], rematch["options"], rematch["players"], rematch["status"]) == (
        "han", {"map": "border-disputes", "variant": True}, 3, "open")
    assert [(s["position"], s["kind"], s["user"], s["bot_kind"]) for s in rematch["seats"]] == [
        (0, "human", bob.username, None), (1, "bot", None, "greedy"), (2, "open", None, None)]
    assert rematch["lobby"]["private"] and rematch["lobby"]["rematch_of"] == original["id"]
    assert rematch["time_control"] == original["time_control"]
    assert rematch["time_control"]["timeout_policy"] == "forfeit"
    # the other proposer gets the same rematch, not a second one
    again = a.post(match_url(original["id"], "rematch/")).json()
    assert again["id"] == rematch["id"] and Rematch.objects.count() == 1
    invitation = a.get(f"{API}/invitations/").json()["results"][0]
    assert (invitation["is_rematch"], invitation["position"]) == (True, 2)
    with eager_celery():
        started = a.post(f"{API}/invitations/{invitation['id']}/accept/").json()
    assert started["status"] == "active" and started["your_seat"] == 2


def test_a_declined_rematch_is_aborted(people):
    (alice, bob, _carol, _dave), (a, b, _c, _d) = people
    with eager_celery():
        original = a.post(f"{API}/matches/", {"game": "hansa", "players": 2},
                          format="json").json()
        b.post(match_url(original["id"], "join/"), {}, format="json")
    play_to_end(original["id"], {0: alice, 1: bob})
    rematch = a.post(match_url(original["id"], "rematch/")).json()
    invitation = b.get(f"{API}/invitations/?status=pending").json()["results"][0]
    assert b.post(f"{API}/invitations/{invitation['id']}/decline/").status_code == 200
    match = Match.objects.get(pk=rematch["id"])
    assert match.status == MatchStatus.ABORTED and "declined" in match.abort_reason


def test_rematch_only_after_the_end(people):
    (_alice, _bob, _carol, _dave), (a, _b, _c, _d) = people
    match = a.post(f"{API}/matches/", {"game": "han", "players": 3}, format="json").json()
    assert_api_error(a.post(match_url(match["id"], "rematch/")), 409, "rematch_not_allowed")
    assert_api_error(a.post(match_url("x", "rematch/")), 404, "match_not_found")
    assert not Rematch.objects.exists()


def test_bad_lobby_input_is_4xx_and_writes_nothing(people, api_client):
    (alice, bob, carol, dave), (a, b, c, d) = people
    match = a.post(f"{API}/matches/", {"game": "han", "players": 3}, format="json").json()

    def counts():
        return (*row_counts(), Invitation.objects.count(), PrivateMatch.objects.count())

    before = counts()
    cases = [
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3,
                                             "invite": ["nobody-here"]}, format="json"),
         400, "unknown_user"),
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3,
                                             "invite": [alice.username]}, format="json"),
         400, "invalid_request"),
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3,
                                             "invite": "bob"}, format="json"),
         400, "invalid_request"),
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3,
                                             "invite": [bob.username, bob.username]},
                format="json"), 400, "invalid_request"),
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3,
                                             "invite": [bob.username, carol.username,
                                                        dave.username]}, format="json"),
         409, "match_full"),
        (a.post(f"{API}/private-matches/", {"game": "chess", "players": 3}, format="json"),
         400, "unknown_game"),
        (a.post(f"{API}/private-matches/", {"game": "han", "players": 3, "take_seat": False},
                format="json"), 400, "invalid_input"),
        (api_client.post(f"{API}/private-matches/", {"game": "han", "players": 3},
                         format="json"), 401, "not_authenticated"),
        (a.post(match_url(match["id"], "invitations/"), {}, format="json"), 400,
         "invalid_input"),
        (a.post(match_url(match["id"], "invitations/"), {"usernames": [1]}, format="json"),
         400, "invalid_request"),
        (d.post(match_url(match["id"], "invitations/"), {"usernames": [bob.username]},
                format="json"), 403, "forbidden"),
        (a.post(match_url(999999, "invitations/"), {"usernames": [bob.username]},
                format="json"), 404, "match_not_found"),
        (a.post(f"{API}/invitations/x/accept/"), 404, "invitation_not_found"),
        (a.post(f"{API}/invitations/99999999999999999999/decline/"), 404,
         "invitation_not_found"),
        (a.get(f"{API}/invitations/?status=maybe"), 400, "invalid_request"),
    ]
    for response, status, code in cases:
        assert_api_error(response, status, code)
    assert counts() == before
    a.post(match_url(match["id"], "invitations/"), {"usernames": [bob.username]},
           format="json")
    assert_api_error(a.post(match_url(match["id"], "invitations/"),
                            {"usernames": [bob.username]}, format="json"), 409,
                     "already_invited")
    body = gql('mutation { createPrivateMatch(game: "han", players: 3, invite: ["nobody"]) '
               '{ match { id } errors { code } } }', token=make_token(alice))
    assert body["data"]["createPrivateMatch"] == {"match": None,
                                                  "errors": [{"code": "unknown_user"}]}
