"""A token key holding a control character (issue 21): psycopg refused the NUL byte when
the key reached the database, so ``Authorization: Token a<NUL>b`` was a 500 on REST and
GraphQL, and ``?token=a%00b`` crashed the websocket's token check. A key with a control
character cannot be a key: it is refused as any unknown key is (401 ``Invalid token.``),
without a query."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.test import APIClient

from accounts.token_auth import NarrowTokenAuthentication
from games.graphql.auth import InvalidToken, user_for_token

pytestmark = pytest.mark.django_db

KEYS = ["a\x00b", "\x00" * 40, "0" * 39 + "\x1f", "key\x7f"]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_the_key_is_refused_like_an_unknown_one_without_a_query(key):
    with CaptureQueriesContext(connection) as context:
        with pytest.raises(AuthenticationFailed, match="Invalid token"):
            NarrowTokenAuthentication().authenticate_credentials(key)
        with pytest.raises(InvalidToken):  # the websocket's ?token= and authToken
            user_for_token(key)
    assert context.captured_queries == []


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_rest_and_graphql_answer_401(key):
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = client.get("/api/v1/me")
    assert response.status_code == 401, response.content
    assert response.json()["error"]["code"] == "not_authenticated"
    response = Client(raise_request_exception=False).post(
        "/graphql/", data=json.dumps({"query": "{ me { username } }"}),
        content_type="application/json", HTTP_AUTHORIZATION=f"Token {key}")
    assert response.status_code == 401, response.content
    assert response.json()["errors"][0]["extensions"]["code"] == "not_authenticated"
