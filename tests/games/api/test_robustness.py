"""Bad input found by fuzzing the REST API (schemathesis and by hand, scripts/fuzz_api.sh):
each case was a 500 or a silently accepted request; now a 4xx with a stable code in the
error shape, and nothing written (match, seat and move counts, the match's ply and state)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games.matches import services as match_services
from infra.parsers import MAX_JSON_DEPTH
from tests.games.support import API, assert_api_error, match_url, row_counts

pytestmark = pytest.mark.django_db




def _nested(depth: int, leaf=1):
    value = leaf
    for _ in range(depth):
        value = [value]
    return value


def _refused_without_writing(client, method, url, body, status, code, match=None) -> dict:
    if match is not None:
        match.refresh_from_db()
        ply, state = match.ply, match.state
    before = row_counts()
    if isinstance(body, (str, bytes)):
        response = getattr(client, method)(url, body, content_type="application/json")
    else:
        response = getattr(client, method)(url, body, format="json")
    error = assert_api_error(response, status, code)
    assert row_counts() == before
    if match is not None:
        match.refresh_from_db()
        assert (match.ply, match.state) == (ply, state)
    return error


# -- list pages: a huge limit reached PostgreSQL and overflowed its bigint (500) ------------
@pytest.mark.parametrize("query", [
    "limit=99999999999999999999", f"limit={2**63}", "limit=101", "limit=0", "limit=-1",
    "limit=abc", "limit=1.5", "limit=%EF%BC%93", "offset=-1", "offset=99999999999999999999",
    "offset=x", "limit=5&offset=1e3",
])
def test_bad_page_bounds_are_invalid_request(api_client, query):
    error = assert_api_error(api_client.get(f"{API}/matches/?{query}"), 400, "invalid_request")
    assert {"min", "max"} <= set(error["details"])


def test_page_bounds_at_their_limits_are_served(api_client, ann):
    match_services.create_match(user=ann[0], game="hansa", players=3)
    for query in ("limit=100", "limit=1&offset=0", f"offset={2**31 - 1}", "limit=&offset="):
        response = api_client.get(f"{API}/matches/?{query}")
        assert response.status_code == 200, (query, response.content[:200])
    assert api_client.get(f"{API}/matches/?offset={2**31 - 1}").json()["results"] == []
    assert len(api_client.get(f"{API}/matches/?limit=1").json()["results"]) == 1


# -- JSON nested thousands deep: RecursionError in the parser (500) ------------------------
@pytest.mark.parametrize("body", ["[" * 5000 + "]" * 5000,
                                  '{"move":' * 5000 + "{}" + "}" * 5000])
@pytest.mark.parametrize("path", ["matches/", "moves/", "join/", "start/", "auth"])
def test_deeply_nested_json_is_malformed_json(ann, han_duel, body, path):
    url = {"matches/": f"{API}/matches/", "auth": f"{API}/auth/register/"}.get(
        path, match_url(han_duel.pk, path))
    _refused_without_writing(ann[1], "post", url, body, 400, "malformed_json", han_duel)


def test_json_just_past_the_depth_bound_is_refused_and_below_reaches_the_engine(ann, han_duel):
    client = ann[1]
    too_deep = {"move": {"type": "place", "cards": _nested(MAX_JSON_DEPTH)}}
    _refused_without_writing(client, "post", match_url(han_duel.pk, "moves/"), too_deep, 400,
                             "malformed_json", han_duel)
    # Shallow enough: the request is read, and the engine (not the parser) refuses the move.
    deep_but_fine = {"move": {"type": "place", "cards": _nested(MAX_JSON_DEPTH - 3)}}
    han_duel.refresh_from_db()
    before = row_counts()
    response = client.post(match_url(han_duel.pk, "moves/"), deep_but_fine, format="json")
    assert response.status_code in (400, 409), response.content[:200]
    assert response.json()["error"]["code"] not in ("malformed_json", "server_error")
    assert row_counts() == before


# -- seat positions: "\uff11" (fullwidth 1) was read as seat 1 ------------------------------
@pytest.mark.parametrize("body", [
    {"game": "hansa", "players": 2, "bot_seats": {"\uff11": "random"}},
    {"game": "hansa", "players": 2, "bot_seats": {"\u0661": "random"}},
    {"game": "hansa", "players": 2, "creator_seat": "\uff10"},
    {"game": "hansa", "players": 2, "creator_seat": "\u0660"},
])
def test_positions_in_other_scripts_are_invalid_seat(ann, body):
    _refused_without_writing(ann[1], "post", f"{API}/matches/", body, 400, "invalid_seat")


def test_joining_at_a_non_ascii_position_is_invalid_seat(ann, make_user, make_auth_client):
    match = match_services.create_match(user=ann[0], game="hansa", players=3)
    bob = make_auth_client(make_user())
    _refused_without_writing(bob, "post", match_url(match.pk, "join/"), {"position": "\uff12"},
                             400, "invalid_seat", match)


def test_ascii_digit_positions_still_work(ann):
    response = ann[1].post(f"{API}/matches/", {"game": "hansa", "players": 3,
                                               "bot_seats": {"2": "random"},
                                               "creator_seat": "1"}, format="json")
    assert response.status_code == 201, response.content[:300]
    kinds = {seat["position"]: seat["kind"] for seat in response.json()["seats"]}
    assert kinds == {0: "open", 1: "human", 2: "bot"}


# -- misspelt keys were dropped silently (a move skipped its stale-ply check) -----------------
def test_unknown_key_in_a_move_request_is_refused(ann, han_duel):
    mover = ann[1]
    legal = mover.get(match_url(han_duel.pk, "legal-moves/")).json()
    move = legal["moves"][0] if legal["moves"] else {"type": "pass"}
    error = _refused_without_writing(
        mover, "post", match_url(han_duel.pk, "moves/"),
        {"move": move, "expectedPly": 99}, 400, "invalid_input", han_duel)
    assert error["details"] == {"expectedPly": [{"message": "Unknown field.",
                                                 "code": "unknown_field"}]}


@pytest.mark.parametrize("body, field", [
    ({"game": "hansa", "players": 2, "bot_seat": {"1": "random"}}, "bot_seat"),
    ({"game": "han", "players": 2, "option": {"map": "border-disputes"}}, "option"),
    ({"game": "han", "players": 2, "x" * 500: 1}, "x" * 40),
])
def test_unknown_key_in_a_create_request_is_refused(ann, body, field):
    error = _refused_without_writing(ann[1], "post", f"{API}/matches/", body, 400,
                                     "invalid_input")
    assert error["details"][field][0]["code"] == "unknown_field"


# -- the schema documents the error answers the API gives ------------------------------------
def test_every_operation_documents_its_error_shape(api_client):
    schema = api_client.get(f"{API}/schema/?format=json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            unauthenticated = {("get", f"{API}/health"), ("post", f"{API}/auth/register/"),
                               ("post", f"{API}/auth/token/")}
            if (method, path) not in unauthenticated:
                assert "401" in responses, (method, path)
            if "requestBody" in operation:
                assert "400" in responses, (method, path)
            for status, response in responses.items():
                if status.startswith("4"):
                    ref = response["content"]["application/json"]["schema"]["$ref"]
                    assert ref.endswith("/Error"), (method, path, status)


# -- logging in with a stale token header answered 401 "Invalid token." ----------------------
def test_logging_in_while_sending_a_revoked_token_issues_a_token(api_client, make_user):
    user = make_user(password="a-good-long-password-1")
    api_client.credentials(HTTP_AUTHORIZATION="Token " + "0" * 40)
    response = api_client.post(f"{API}/auth/token/", {"username": user.username,
                                                      "password": "a-good-long-password-1"},
                               format="json")
    assert response.status_code == 200, response.content[:200]
    assert len(response.json()["token"]) == 40
    wrong = api_client.post(f"{API}/auth/token/", {"username": user.username,
                                                   "password": "wrong"}, format="json")
    assert_api_error(wrong, 400, "invalid_credentials")
    # revoking still needs the (valid) token
    assert_api_error(api_client.delete(f"{API}/auth/token/"), 401, "not_authenticated")


# -- property: random JSON as a move, to both engines, over REST -----------------------------

_CODE = re.compile(r"^[a-z][a-z0-9_]{2,63}$")

_scalars = (st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70)
            | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12)
            | st.sampled_from(["place", "draw", "keep", "store", "trade", "pass", "house",
                               "green", "display", "pile", "red", "ber-01", "choose_start"]))
_json = st.recursive(_scalars, lambda inner: st.lists(inner, max_size=4)
                     | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)


def _replace_somewhere(move, path_index: int, value):
    """``move`` with the value at the ``path_index``-th place (depth first) replaced."""
    places = []

    def walk(node, path):
        places.append(path)
        children = node.items() if isinstance(node, dict) else enumerate(node) \
            if isinstance(node, list) else ()
        for key, child in children:
            walk(child, path + [key])

    walk(move, [])
    path = places[path_index % len(places)]
    if not path:
        return value
    copied = json.loads(json.dumps(move))
    target = copied
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return copied


@pytest.mark.parametrize("game", ["han", "hansa"])
def test_random_json_moves_are_refused_with_a_code_and_write_nothing(ann, make_user, game):
    """About 75 examples per game, derandomized (the same inputs every run): random JSON
    values, and legal moves with one value swapped for random JSON, submitted by a seat
    that owes a decision. Each is a 400 with a stable code; nothing is written."""
    user, client = ann
    match = match_services.create_match(user=user, game=game, players=2)
    match_services.join_match(user=make_user(), match_id=match.pk)
    url = match_url(match.pk, "moves/")
    legal = client.get(match_url(match.pk, "legal-moves/")).json()["moves"]
    assert legal, "seat 0 must owe the first decision in both games"
    canonical_legal = {json.dumps(move, sort_keys=True) for move in legal}
    match.refresh_from_db()
    before = (row_counts(), match.ply, json.dumps(match.state, sort_keys=True))

    @settings(max_examples=75, derandomize=True, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(raw=_json, base=st.integers(min_value=0, max_value=len(legal) - 1),
           place=st.integers(min_value=0, max_value=50), mutate=st.booleans())
    def refused(raw, base, place, mutate):
        move = _replace_somewhere(legal[base], place, raw) if mutate else raw
        assume(json.dumps(move, sort_keys=True) not in canonical_legal)
        response = client.post(url, {"move": move}, format="json")
        assert response.status_code == 400, (move, response.status_code, response.content[:300])
        error = response.json()["error"]
        assert _CODE.match(error["code"]) and error["code"] != "server_error", (move, error)
        # the service's net for an engine crash (games/matches/services.py) must never be needed
        assert "could not read" not in error["message"], (move, error)
        match.refresh_from_db()
        assert (row_counts(), match.ply, json.dumps(match.state, sort_keys=True)) == before

    refused()


def test_a_user_without_email_matches_the_documented_user_shape(auth_client, api_client):
    schema = api_client.get(f"{API}/schema/?format=json").json()
    email = schema["components"]["schemas"]["User"]["properties"]["email"]
    me = auth_client.get(f"{API}/me").json()
    assert me["email"] == ""  # the conftest user has none
    assert email["type"] == "string" and "format" not in email  # "" is no e-mail address
