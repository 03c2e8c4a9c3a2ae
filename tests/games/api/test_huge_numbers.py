"""Numbers past Python's digit limit in REST paths and query strings (issue 39).

``int()`` refuses a string of more than 4,300 digits with ValueError: every number a
request carries went through ``int()`` unbounded, so a 5,000-digit match id, ``limit``,
``ply``, ``since``, ``last_event_id`` or ``after`` was a 500 on 13 URLs. Every number is now
read by one parser (infra/numbers.py) that refuses more than 20 digits before ``int()``:
each URL answers a 4xx with its stable code, and writes nothing.
"""

from __future__ import annotations

import asyncio

import pytest
from django.test import AsyncClient
from rest_framework.authtoken.models import Token

from tests.games.support import API, assert_api_error, row_counts

pytestmark = pytest.mark.django_db

HUGE = "1" * 5000
#: just past what the parser reads (20 digits), and just past PostgreSQL's bigint
LONG = "9" * 21
BIGINT_PLUS_ONE = str(2**63)


#: (method, URL, status, code): {n} is the huge number, {match} a real match, {user} ann
URLS = [
    ("get", "matches/{n}/", 404, "match_not_found"),
    ("post", "matches/{n}/join/", 404, "match_not_found"),
    ("post", "matches/{n}/leave/", 404, "match_not_found"),
    ("post", "matches/{n}/start/", 404, "match_not_found"),
    ("post", "matches/{n}/abort/", 404, "match_not_found"),
    ("post", "matches/{n}/resign/", 404, "match_not_found"),
    ("post", "matches/{n}/reclaim/", 404, "match_not_found"),
    ("get", "matches/{n}/legal-moves/", 404, "match_not_found"),
    ("get", "matches/{n}/moves/", 404, "match_not_found"),
    ("post", "matches/{n}/moves/", 404, "match_not_found"),  # body: a well-formed move
    ("get", "matches/{n}/replay/", 404, "match_not_found"),
    ("get", "matches/{n}/result/", 404, "match_not_found"),
    ("get", "matches/{n}/events/", 404, "match_not_found"),
    ("get", "matches/{n}/board.svg", 404, "match_not_found"),
    ("get", "matches/{n}/board.png", 404, "match_not_found"),
    ("get", "matches/{n}/analysis/", 404, "match_not_found"),
    ("post", "matches/{n}/analysis/", 404, "match_not_found"),
    ("get", "matches/{n}/lobby/", 404, "match_not_found"),
    ("post", "matches/{n}/invitations/", 404, "match_not_found"),
    ("post", "matches/{n}/rematch/", 404, "match_not_found"),
    ("get", "matches/{n}/record/", 404, "match_not_found"),
    ("post", "invitations/{n}/accept/", 404, "invitation_not_found"),
    ("post", "invitations/{n}/decline/", 404, "invitation_not_found"),
    ("delete", "quick-match/{n}/", 404, "quick_match_not_found"),
    ("get", "matches/?limit={n}", 400, "invalid_request"),
    ("get", "matches/?offset={n}", 400, "invalid_request"),
    ("get", "leaderboard/han/?limit={n}", 400, "invalid_request"),
    ("get", "leaderboard/han/?offset={n}", 400, "invalid_request"),
    ("get", "users/{user}/ratings/?limit={n}", 400, "invalid_request"),
    ("get", "users/{user}/records/?after={n}", 400, "invalid_request"),
    ("get", "users/{user}/records/?limit={n}", 400, "invalid_request"),
    ("get", "me/export?records_after={n}", 400, "invalid_request"),
    ("get", "me/export?records_limit={n}", 400, "invalid_request"),
    ("get", "matches/{match}/replay/?ply={n}", 400, "invalid_ply"),
    ("get", "matches/{match}/events/?since={n}", 400, "invalid_ply"),
    ("get", "matches/{match}/board.svg?ply={n}", 400, "invalid_ply"),
    ("get", "matches/{match}/board.png?ply={n}", 400, "invalid_ply"),
]


#: a body each refusal must not be blamed on: the number is the only thing wrong
BODIES = {"moves/": {"move": {"type": "pass"}}, "invitations/": {"usernames": ["nobody"]}}


def _ask(client, method: str, url: str):
    if method == "get":
        return client.get(url)
    body = next((body for end, body in BODIES.items() if url.endswith(end)), {})
    return getattr(client, method)(url, body, format="json")


@pytest.mark.parametrize("number", [HUGE, LONG, BIGINT_PLUS_ONE])
@pytest.mark.parametrize("method, url, status, code", URLS)
def test_a_huge_number_is_a_4xx_with_its_code_and_writes_nothing(ann, han_duel, method,
                                                                  url, status, code, number):
    user, client = ann
    before = row_counts()
    address = f"{API}/" + url.format(n=number, match=han_duel.pk, user=user.username)
    error = assert_api_error(_ask(client, method, address), status, code)
    assert row_counts() == before
    assert HUGE[:100] not in str(error)  # a long value is not echoed back whole


@pytest.mark.django_db(transaction=True)  # the async view reads the token on another thread
@pytest.mark.parametrize("number", [HUGE, LONG])
@pytest.mark.parametrize("how", ["query", "header"])
def test_the_stream_refuses_a_huge_last_event_id(make_user, how, number):
    key = Token.objects.create(user=make_user()).key

    async def ask():
        stream = AsyncClient()
        if how == "query":
            return await stream.get(f"{API}/stream/?last_event_id={number}",
                                    headers={"Authorization": f"Token {key}"})
        return await stream.get(f"{API}/stream/", headers={"Authorization": f"Token {key}",
                                                          "Last-Event-ID": number})

    response = asyncio.run(ask())
    error = assert_api_error(response, 400, "invalid_request")
    assert "last_event_id" in error["details"]


def test_numbers_at_their_bounds_are_still_read(ann, han_duel):
    """Twenty digits is the most the parser reads: a bigint's largest value still finds
    no match (404), 19 nines of offset is out of range (400), not a parse failure."""
    user, client = ann
    assert_api_error(client.get(f"{API}/matches/{2**63 - 1}/"), 404, "match_not_found")
    assert client.get(f"{API}/matches/{han_duel.pk}/replay/?ply=0").status_code == 200
    assert client.get(f"{API}/matches/{han_duel.pk:020d}/").status_code == 200
    error = assert_api_error(client.get(f"{API}/matches/?offset={'9' * 20}"), 400,
                             "invalid_request")
    assert error["details"]["max"] == 2**31 - 1


def _integer_body_fields() -> list:
    """(method, path, field) for every integer property of every request body in the
    OpenAPI document (one level down too: ``time_control.initial_seconds``)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema["components"]["schemas"]

    def resolved(node: dict) -> dict:
        if "$ref" in node:
            return components[node["$ref"].rsplit("/", 1)[-1]]
        for variant in node.get("allOf", []) + node.get("oneOf", []) + node.get("anyOf", []):
            if "$ref" in variant or "properties" in variant:
                return resolved(variant)
        return node

    def integer(node: dict) -> bool:
        kind = resolved(node).get("type")
        return kind == "integer" or (isinstance(kind, list) and "integer" in kind)

    cases = []
    for path, item in schema["paths"].items():
        for method in ("post", "put", "patch", "delete"):
            body = (item.get(method) or {}).get("requestBody")
            if not body or "application/json" not in body["content"]:
                continue
            properties = resolved(body["content"]["application/json"]["schema"]).get(
                "properties", {})
            for name, node in properties.items():
                if integer(node):
                    cases.append((method, path, [name]))
                for inner, below in (resolved(node).get("properties") or {}).items():
                    if integer(below):
                        cases.append((method, path, [name, inner]))
    return cases


INTEGER_BODY_FIELDS = _integer_body_fields()


@pytest.mark.parametrize("digits", [30, 4000])
@pytest.mark.parametrize("method, path, field", INTEGER_BODY_FIELDS,
                         ids=[f"{m.upper()} {p} {'.'.join(f)}"
                              for m, p, f in INTEGER_BODY_FIELDS])
def test_a_huge_integer_in_any_body_field_is_a_4xx(ann, han_duel, method, path, field,
                                                   digits):
    user, client = ann
    url = (path.replace("{match_id}", str(han_duel.pk)).replace("{username}", user.username)
           .replace("{game}", "han").replace("{invitation_id}", "1")
           .replace("{request_id}", "1"))
    body: dict = {"game": "han", "players": 2}
    target = body
    for part in field[:-1]:
        target = target.setdefault(part, {})
    target[field[-1]] = int("9" * digits)
    before = row_counts()
    response = getattr(client, method)(url, body, format="json")
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert response.json()["error"]["code"]
    assert row_counts() == before
