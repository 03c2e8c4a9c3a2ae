"""GraphQL over a browser session (issue 9, defect 7): a session-authenticated POST with a
valid CSRF token is served, one without is a 403 in the error shape, never a 500."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.games.graphql.support import GRAPHQL

pytestmark = pytest.mark.django_db

ME = json.dumps({"query": "{ me { username } }"})
CREATE = json.dumps({"query": 'mutation { createMatch(game: "han", players: 3) '
                              "{ match { id players } errors { code } } }"})


def _session_client(user) -> tuple[Client, str]:
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    client.get("/admin/login/")  # any page that sets the csrftoken cookie
    return client, client.cookies["csrftoken"].value


def test_a_session_post_with_the_csrf_token_is_served(players):
    client, csrf = _session_client(players[0].user)
    response = client.post(GRAPHQL, data=ME, content_type="application/json",
                           HTTP_X_CSRFTOKEN=csrf)
    assert response.status_code == 200, response.content[:300]
    assert response.json()["data"]["me"]["username"] == players[0].user.username

    mutation = client.post(GRAPHQL, data=CREATE, content_type="application/json",
                           HTTP_X_CSRFTOKEN=csrf)
    assert mutation.status_code == 200, mutation.content[:300]
    payload = mutation.json()["data"]["createMatch"]
    assert payload["errors"] == [] and payload["match"]["players"] == 3


@pytest.mark.parametrize("header", [None, "wrong-token-" + "x" * 20])
def test_a_session_post_without_a_valid_csrf_token_is_a_json_403(players, header):
    client, _csrf = _session_client(players[0].user)
    extra = {"HTTP_X_CSRFTOKEN": header} if header else {}
    response = client.post(GRAPHQL, data=CREATE, content_type="application/json", **extra)
    assert response.status_code == 403
    error = response.json()["errors"][0]
    assert error["extensions"]["code"] == "permission_denied"
    assert error["extensions"]["details"]["reason"] == "csrf_failed"
    assert "CSRF" in error["message"]
