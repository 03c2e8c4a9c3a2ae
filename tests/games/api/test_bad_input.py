"""Bad input over HTTP: each case is a 4xx with its stable code in the error shape, and
nothing is written (matches, seats, moves, the match's ply and snapshot unchanged)."""

from __future__ import annotations

import pytest

from games.matches import selectors
from games.matches import services as match_services
from games.matches.models import Match
from tests.games.support import API, assert_api_error, match_url, row_counts

pytestmark = pytest.mark.django_db




@pytest.fixture
def players(make_user, make_auth_client):
    ann, bob = make_user(), make_user()
    return {"ann": ann, "bob": bob, "ann_client": make_auth_client(ann),
            "bob_client": make_auth_client(bob)}


@pytest.fixture
def han_duel(players):
    """An active two-player Han match (Ways of Diplomacy) between ann (0) and bob (1)."""
    match = match_services.create_match(user=players["ann"], game="han", players=2)
    match_services.join_match(user=players["bob"], match_id=match.pk)
    match.refresh_from_db()
    assert match.status == "active"
    return match


@pytest.mark.parametrize(
    "body, status, code",
    [
        ({"game": "chess", "players": 2}, 400, "unknown_game"),
        ({"game": 7, "players": 2}, 400, "unknown_game"),
        ({"game": "han", "players": 9}, 400, "invalid_player_count"),
        ({"game": "han", "players": "four"}, 400, "invalid_player_count"),
        ({"game": "hansa", "players": 1}, 400, "invalid_player_count"),
        ({"game": "han", "players": 4, "options": {"map": "the-moon"}}, 400, "invalid_options"),
        ({"game": "han", "players": 4, "options": {"colour": "red"}}, 400, "invalid_options"),
        ({"game": "han", "players": 4, "options": ["map"]}, 400, "invalid_options"),
        ({"game": "hansa", "players": 2, "bot_seats": {"1": "genius"}}, 400, "unknown_bot"),
        ({"game": "hansa", "players": 2, "bot_seats": {"5": "random"}}, 400, "invalid_seat"),
        ({"game": "hansa", "players": 2, "bot_seats": ["random"]}, 400, "invalid_seat"),
        ({"game": "hansa", "players": 2, "bot_seats": {"0": "random", "1": "random"},
          "take_seat": True}, 409, "match_full"),
        ({"game": "hansa", "players": 2, "creator_seat": 3}, 400, "invalid_seat"),
        # one seat named twice ("1" and " 1"): refused, as GraphQL does, not one kind dropped
        ({"game": "hansa", "players": 3, "bot_seats": {"1": "random", " 1": "greedy"}},
         400, "invalid_seat"),
        ({"players": 2}, 400, "invalid_input"),
    ],
)
def test_create_match_refusals_write_nothing(players, body, status, code):
    before = row_counts()
    assert_api_error(players["ann_client"].post(f"{API}/matches/", body, format="json"),
                  status, code)
    assert row_counts() == before


def test_creating_needs_a_login(api_client):
    before = row_counts()
    assert_api_error(api_client.post(f"{API}/matches/", {"game": "han", "players": 2},
                                  format="json"), 401, "not_authenticated")
    assert row_counts() == before


def test_malformed_json_body_is_a_400(players):
    response = players["ann_client"].post(f"{API}/matches/", "{not json",
                                          content_type="application/json")
    assert_api_error(response, 400, "malformed_json")


def test_unknown_game_in_the_catalogue_is_a_404(api_client):
    assert_api_error(api_client.get(f"{API}/games/chess/"), 404, "unknown_game")


@pytest.mark.parametrize("match_id", ["999999", "abc", "-1", "0", "1.5",
                                      "99999999999999999999999", "%C3%A9"])
@pytest.mark.parametrize("suffix", ["", "moves/", "replay/?ply=0", "result/", "events/",
                                    "legal-moves/"])
def test_unknown_or_malformed_match_is_a_404(players, match_id, suffix):
    assert_api_error(players["ann_client"].get(match_url(match_id, suffix)), 404,
                  "match_not_found")


@pytest.mark.parametrize("action", ["join/", "leave/", "start/", "abort/", "moves/"])
def test_actions_on_an_unknown_match_are_404(players, action):
    before = row_counts()
    assert_api_error(players["ann_client"].post(match_url(424242, action), {"move": {}},
                                             format="json"), 404, "match_not_found")
    assert row_counts() == before


def test_joining_a_full_match(han_duel, make_user, make_auth_client):
    before = row_counts()
    carol = make_auth_client(make_user())
    assert_api_error(carol.post(match_url(han_duel.pk, "join/"), {}, format="json"), 409,
                  "match_full")
    assert row_counts() == before


def _move_refused(client, match, body, status, code):
    match.refresh_from_db()
    before, ply, state = row_counts(), match.ply, match.state
    assert_api_error(client.post(match_url(match.pk, "moves/"), body, format="json"),
                  status, code)
    match.refresh_from_db()
    assert row_counts() == before and match.ply == ply and match.state == state


def _mover_and_waiter(players, match):
    to_act = selectors.to_act_of(match)
    assert len(to_act) == 1
    clients = [players["ann_client"], players["bob_client"]]
    return clients[to_act[0]], clients[1 - to_act[0]]


def test_not_your_turn(players, han_duel):
    mover, waiter = _mover_and_waiter(players, han_duel)
    legal_for_mover = mover.get(match_url(han_duel.pk, "legal-moves/")).json()["moves"]
    _move_refused(waiter, han_duel, {"move": legal_for_mover[0]}, 409, "not_your_turn")


def test_stale_ply(players, han_duel):
    mover, _ = _mover_and_waiter(players, han_duel)
    legal = mover.get(match_url(han_duel.pk, "legal-moves/")).json()
    _move_refused(mover, han_duel, {"move": legal["moves"][0], "expected_ply": 5}, 409,
                  "stale_ply")
    _move_refused(mover, han_duel, {"move": legal["moves"][0], "expected_ply": "zero"}, 400,
                  "invalid_ply")


@pytest.mark.parametrize("body", [{"move": [1, 2]}, {"move": "place"}, {"move": 3}])
def test_malformed_move(players, han_duel, body):
    mover, _ = _mover_and_waiter(players, han_duel)
    _move_refused(mover, han_duel, body, 400, "malformed_move")


@pytest.mark.parametrize("body, reason", [({}, "required"), ({"move": None}, "null")])
def test_a_body_without_a_move_is_refused_as_the_schema_says(players, han_duel, body, reason):
    """``move`` is required and not null in SubmitMoveRequest (issue 41): a body without
    one is refused as any request missing a required field, with the field's own code."""
    mover, _ = _mover_and_waiter(players, han_duel)
    _move_refused(mover, han_duel, body, 400, "invalid_input")
    error = mover.post(match_url(han_duel.pk, "moves/"), body, format="json").json()["error"]
    assert [problem["code"] for problem in error["details"]["move"]] == [reason]


def test_illegal_move_carries_the_engines_code(players, han_duel):
    mover, _ = _mover_and_waiter(players, han_duel)
    han_duel.refresh_from_db()
    before = row_counts()
    response = mover.post(match_url(han_duel.pk, "moves/"),
                          {"move": {"type": "teleport"}}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] not in ("", "malformed_move", "server_error")
    assert row_counts() == before


def test_an_outsider_cannot_move(han_duel, make_user, make_auth_client):
    outsider = make_auth_client(make_user())
    _move_refused(outsider, han_duel, {"move": {"type": "pass"}}, 403, "not_seated")


@pytest.mark.parametrize("ply", ["-1", "abc", "99", "", "1e3"])
def test_bad_replay_ply(players, han_duel, ply):
    assert_api_error(players["ann_client"].get(match_url(han_duel.pk, f"replay/?ply={ply}")),
                  400, "invalid_ply")


@pytest.mark.parametrize("since", ["-3", "x", "500"])
def test_bad_events_since(players, han_duel, since):
    assert_api_error(players["ann_client"].get(match_url(han_duel.pk, f"events/?since={since}")),
                  400, "invalid_ply")


def test_result_before_the_end(api_client, han_duel):
    assert_api_error(api_client.get(match_url(han_duel.pk, "result/")), 409, "not_finished")


def test_spectators_have_no_legal_moves(api_client, han_duel):
    assert_api_error(api_client.get(match_url(han_duel.pk, "legal-moves/")), 403, "not_seated")


@pytest.mark.parametrize("query, code", [("status=done", "invalid_request"),
                                         ("open=maybe", "invalid_request"),
                                         ("game=chess", "unknown_game")])
def test_bad_list_filters(api_client, query, code):
    assert_api_error(api_client.get(f"{API}/matches/?{query}"), 400, code)


def test_only_the_creator_starts_or_aborts(players, make_user, make_auth_client):
    match = match_services.create_match(user=players["ann"], game="hansa", players=3)
    match_services.join_match(user=players["bob"], match_id=match.pk)
    before = row_counts()
    for action in ("start/", "abort/"):
        assert_api_error(players["bob_client"].post(match_url(match.pk, action), {},
                                                 format="json"), 403, "forbidden")
    assert_api_error(players["ann_client"].post(match_url(match.pk, "start/"), {},
                                             format="json"), 409, "match_not_full")
    assert_api_error(players["ann_client"].post(match_url(match.pk, "start/"),
                                             {"fill_with": "genius"}, format="json"),
                  400, "unknown_bot")
    assert row_counts() == before
    assert Match.objects.get(pk=match.pk).status == "open"


def test_joining_twice_and_leaving_without_a_seat(players, make_user, make_auth_client):
    match = match_services.create_match(user=players["ann"], game="hansa", players=3)
    before = row_counts()
    assert_api_error(players["ann_client"].post(match_url(match.pk, "join/"), {}, format="json"),
                  409, "already_seated")
    assert_api_error(players["bob_client"].post(match_url(match.pk, "leave/"), {}, format="json"),
                  403, "not_seated")
    assert_api_error(players["bob_client"].post(match_url(match.pk, "join/"), {"position": 0},
                                             format="json"), 409, "seat_taken")
    assert_api_error(players["bob_client"].post(match_url(match.pk, "join/"), {"position": 7},
                                             format="json"), 400, "invalid_seat")
    assert row_counts() == before
