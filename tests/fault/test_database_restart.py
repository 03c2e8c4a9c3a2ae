"""PostgreSQL restarts while a real worker plays a bot-only match (issue 9).

During the outage every API answers in its JSON error shape with a 503 and the stable
code ``service_unavailable`` (before: an HTML or JSON 500, with nothing telling a client
to retry); the worker's tasks retry on the database errors; the match finishes after."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.matches import services as match_services
from tests.fault.conftest import assert_log_intact, progress, reconnect, report, wait_for
from tests.games.support import assert_api_error, match_url
from tests.workers import purge_test_queue, start_worker, stop_worker

pytestmark = pytest.mark.django_db(transaction=True)

SECRETS = ("password", "54", "postgres", "psycopg", "connection", "Traceback")


def _assert_unavailable(response) -> None:
    error = assert_api_error(response, 503, "service_unavailable")
    assert response["Retry-After"].isdigit()
    for secret in SECRETS:
        assert secret not in error["message"]


def _graphql(client: Client, query: str):
    return client.post("/graphql/", data=json.dumps({"query": query}),
                       content_type="application/json")


def test_api_answers_503_while_the_database_restarts_and_the_match_finishes(
        services, tmp_path, make_user):
    purge_test_queue()
    key = Token.objects.create(user=make_user()).key
    worker = start_worker(tmp_path / "worker.log", "fault-pg", concurrency=2)
    try:
        match = match_services.create_match(
            user=None, game="han", players=4, take_seat=False,
            bot_seats={0: "greedy", 1: "random", 2: "greedy", 3: "random"})
        wait_for(lambda: progress(match.pk)[1] >= 3, 60, "third move", worker)

        services.stop_pg()
        anonymous, signed_in = APIClient(), APIClient()
        signed_in.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        _assert_unavailable(anonymous.get(match_url(match.pk)))
        _assert_unavailable(anonymous.get("/api/v1/matches/"))
        _assert_unavailable(signed_in.get("/api/v1/matches/"))  # the token lookup fails
        _assert_unavailable(signed_in.post("/api/v1/matches/", {"game": "han", "players": 2},
                                           format="json"))
        body = _graphql(Client(), "{ matches { results { id ply } } }").json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["service_unavailable"]
        token_graphql = Client(HTTP_AUTHORIZATION=f"Token {key}")
        response = _graphql(token_graphql, "{ matches { results { id } } }")
        assert response.status_code == 503
        assert response.json()["errors"][0]["extensions"]["code"] == "service_unavailable"
        assert anonymous.get("/api/v1/health").status_code == 503
        assert worker.poll() is None

        services.start_pg()
        reconnect()
        back = wait_for(lambda: anonymous.get(match_url(match.pk)).status_code == 200, 60,
                        "answer from the API")
        ply_back = progress(match.pk)
        resumed = wait_for(lambda: progress(match.pk) != ply_back, 60,
                           "move after the restart", worker)
        finished = wait_for(lambda: progress(match.pk)[0] == "finished", 120,
                            "end of the match", worker)
        report("PostgreSQL restart -> API answers", back)
        report("PostgreSQL restart -> match finished", back + resumed + finished)
        assert_log_intact(match.pk)
    finally:
        stop_worker(worker)
