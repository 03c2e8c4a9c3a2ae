"""Control characters in every text input of the REST API (issue 21, item 4).

A NUL byte reached PostgreSQL, which cannot store it in text, and came back as psycopg's
``DataError``: a 500 for ``GET /users/a%00b/`` (and its ratings and records), invitation
usernames, a private match's ``invite`` and ``invite_code``. Now every text a client
sends (path parts, query parameters, JSON bodies at any depth) is checked first
(infra/text_inputs.py) and one holding U+0000-U+001F or U+007F is a 400 ``invalid_input``
naming the field, with nothing written.

The cases are read from the OpenAPI document, so an endpoint added later is covered
without a line here: every path and query parameter, every property of every JSON body.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from django.contrib.auth import get_user_model
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token

from games.lobby import services as lobby_services
from games.lobby.models import Invitation
from games.matches import services as match_services
from games.matches.models import Match
from games.quickmatch import services as quick_services
from games.quickmatch.models import QuickMatchRequest
from tests.games.support import API, assert_api_error, match_url, row_counts

pytestmark = pytest.mark.django_db

METHODS = ("get", "post", "put", "patch", "delete")
BAD = "a\x00b"


def _text_inputs() -> list:
    """(method, path, where, name) for every path parameter, query parameter and body
    property of every operation in the OpenAPI document."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]
    cases = []
    for path, item in schema["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            if operation.get("operationId") == "stream_feed":
                # the feed stream is an asynchronous view outside DRF (documented in the
                # schema since issue 22) that reads the token in a thread of its own, so
                # not from this test's transaction: tests/games/feed/test_stream_inputs.py
                # checks its query instead
                continue
            for parameter in operation.get("parameters", []):
                if parameter["in"] in ("path", "query"):
                    cases.append((method, path, parameter["in"], parameter["name"]))
            body = operation.get("requestBody")
            if body:
                body_schema = body["content"]["application/json"]["schema"]
                if "$ref" in body_schema:
                    body_schema = components[body_schema["$ref"].rsplit("/", 1)[-1]]
                # a free-form object (a record) is probed through a key it reads
                for name in body_schema.get("properties") or ["format"]:
                    cases.append((method, path, "body", name))
    return cases


TEXT_INPUTS = _text_inputs()


@pytest.fixture
def world(make_user, make_auth_client):
    """ann, signed in, with one of everything a path can name: an open match she created
    (so she may invite), an invitation to her, a quick-match request of hers."""
    ann, bob = make_user(username="ann"), make_user(username="bob")
    lobby = match_services.create_match(user=ann, game="han", players=3)
    other = match_services.create_match(user=bob, game="hansa", players=3)
    invitation, = lobby_services.invite(user=bob, match_id=other.pk, usernames=["ann"])
    request = quick_services.request_quick_match(user=ann, game="hansa", players=4)
    return {
        "client": make_auth_client(ann),
        "ids": {"match_id": lobby.pk, "invitation_id": invitation.pk,
                "request_id": request.pk, "username": "ann", "game": "han"},
    }


def _written() -> tuple:
    """Everything a refused request must leave as it was."""
    return (*row_counts(), get_user_model().objects.count(), Token.objects.count(),
            Invitation.objects.count(), QuickMatchRequest.objects.count(),
            tuple(Match.objects.order_by("pk").values_list("status", "abort_reason")))


def _send(client, method: str, path: str, *, ids: dict, query: str = "", body=None):
    url = path.replace(API, "", 1) if path.startswith(API) else path
    for name, value in ids.items():
        url = url.replace("{" + name + "}", quote(str(value), safe=""))
    url = f"{API}{url}{query}"
    if body is None:
        return getattr(client, method)(url)
    return getattr(client, method)(url, body, format="json")


def _assert_refused(response, field: str) -> None:
    error = assert_api_error(response, 400, "invalid_input")
    assert list(error["details"]) == [field], error
    problem, = error["details"][field]
    assert problem["code"] == "control_characters"
    assert "\x00" not in error["message"] and "a\\x00b" not in error["message"]


@pytest.mark.parametrize("method, path, where, name", TEXT_INPUTS,
                         ids=[f"{m.upper()} {p} {w}:{n}" for m, p, w, n in TEXT_INPUTS])
def test_a_control_character_in_any_text_input_is_invalid_input(world, method, path, where,
                                                                 name):
    ids = dict(world["ids"])
    query, body = "", None
    if where == "path":
        ids[name] = BAD
    elif where == "query":
        query = f"?{name}={quote(BAD)}"
    else:
        body = {name: BAD}
    before = _written()
    response = _send(world["client"], method, path, ids=ids, query=query, body=body)
    _assert_refused(response, name)
    assert _written() == before


def test_the_cases_cover_the_inputs_that_answered_500():
    cases = {(method, path, where, name) for method, path, where, name in TEXT_INPUTS}
    assert {
        ("get", f"{API}/users/{{username}}/", "path", "username"),
        ("get", f"{API}/users/{{username}}/ratings/", "path", "username"),
        ("get", f"{API}/users/{{username}}/records/", "path", "username"),
        ("post", f"{API}/matches/{{match_id}}/invitations/", "body", "usernames"),
        ("post", f"{API}/private-matches/", "body", "invite"),
        ("post", f"{API}/private-matches/join/", "body", "invite_code"),
    } <= cases
    assert len(cases) > 60


# -- deeper in a body: lists, objects, keys ---------------------------------------------------
@pytest.mark.parametrize("path, body, field", [
    ("matches/{match_id}/invitations/", {"usernames": ["bob", BAD]}, "usernames.1"),
    ("private-matches/", {"game": "han", "players": 3, "invite": ["bob", BAD]}, "invite.1"),
    ("private-matches/join/", {"invite_code": [BAD]}, "invite_code.0"),
    ("matches/", {"game": "han", "players": 3, "options": {"map": BAD}}, "options.map"),
    ("matches/", {"game": "han", "players": 3, "bot_seats": {"1": BAD}}, "bot_seats.1"),
    ("matches/", {"game": "han", "players": 3, "bot_seats": {"1\x00": "random"}},
     "bot_seats.1\\x00"),
    ("matches/", {"game": "han", "players": 3, "time_control": {"preset": BAD}},
     "time_control.preset"),
    ("matches/{match_id}/moves/", {"move": {"type": "place", "card": {"colour": BAD}}},
     "move.card.colour"),
    ("quick-match/", {"game": "hansa", "players": 2, "rating_range": {"min\x7f": 1}},
     "rating_range.min\\x7f"),
    ("records/verify/", {"format": "han-hansa-record", "moves": [{"move": {"t": "\x1b"}}]},
     "moves.0.move.t"),
    ("auth/register/", {"username": "carol", "password": "long enough\x00password"},
     "password"),
    ("auth/token/", {"username": "ann\x00", "password": "x"}, "username"),
])
def test_nested_text_is_refused_with_its_path(world, path, body, field):
    before = _written()
    response = _send(world["client"], "post", f"{API}/{path}", ids=world["ids"], body=body)
    _assert_refused(response, field)
    assert _written() == before


@pytest.mark.parametrize("character", [chr(code) for code in (*range(1, 0x20), 0x7F)],
                         ids=lambda c: f"U+{ord(c):04X}")
def test_every_control_character_in_a_username_path_is_refused(world, character):
    response = world["client"].get(f"{API}/users/{quote('ann' + character)}/")
    _assert_refused(response, "username")


# -- the one field of free text ---------------------------------------------------------------
def test_an_abort_reason_may_span_lines_but_holds_no_other_control(world):
    client, match_id = world["client"], world["ids"]["match_id"]
    for reason in ("rain\x00", "rain\x07", "rain\x1b[2J"):
        before = _written()
        _assert_refused(client.post(match_url(match_id, "abort/"), {"reason": reason},
                                    format="json"), "reason")
        assert _written() == before
    reason = "Rain stopped play.\r\nWe meet again tomorrow:\tsame table."
    response = client.post(match_url(match_id, "abort/"), {"reason": reason}, format="json")
    assert response.status_code == 200, response.content
    assert Match.objects.get(pk=match_id).abort_reason == reason


def test_line_breaks_anywhere_else_are_refused(world):
    response = world["client"].post(f"{API}/matches/", {"game": "han\n", "players": 3},
                                    format="json")
    _assert_refused(response, "game")


def test_clean_text_still_works(world):
    client = world["client"]
    assert client.get(f"{API}/users/ann/").status_code == 200
    assert client.get(f"{API}/users/ann/ratings/?game=han").status_code == 200
    response = client.post(match_url(world["ids"]["match_id"], "invitations/"),
                           {"usernames": ["bob"]}, format="json")
    assert response.status_code == 201, response.content


def test_every_operation_documents_its_400():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    for path, item in schema["paths"].items():
        for method in METHODS:
            if method in item:
                response = item[method]["responses"].get("400")
                assert response is not None, (method, path)
                assert response["content"]["application/json"]["schema"] == {
                    "$ref": "#/components/schemas/Error"}
