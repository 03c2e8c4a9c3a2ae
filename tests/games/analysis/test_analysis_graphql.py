"""The analysis over GraphQL: ``requestAnalysis`` and ``matchAnalysis`` answer as REST
does, with REST's error codes, and ``analysisProgress`` pushes the progress of a running
analysis over a real websocket (daphne, the Redis channel layer) until it is done."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection

from games.analysis import running
from games.analysis.models import Analysis
from tests.games.analysis.support import TINY, analysis_url, finished_match
from tests.games.graphql.asgi_server import Subscriber, channel_layers_setting, running_daphne
from tests.games.graphql.support import error_codes, gql, make_player, payload_codes
from tests.games.support import isolate_test_celery

pytestmark = pytest.mark.django_db(transaction=True)

REQUEST = """mutation R($id: ID!) { requestAnalysis(matchId: $id) {
  analysis errors { code } } }"""
READ = "query Q($id: ID!) { matchAnalysis(matchId: $id) }"
PROGRESS = """subscription P($id: ID!) { analysisProgress(matchId: $id) {
  matchId status done total } }"""


@pytest.fixture(autouse=True)
def _test_broker():
    isolate_test_celery()


def test_request_and_read_as_rest_does(make_user, api_client):
    player, stranger = make_player(make_user), make_player(make_user)
    match = finished_match(player.user, "hansa")
    assert error_codes(gql(READ, {"id": str(match.pk)})) == ["no_analysis"]
    refused = gql(REQUEST, {"id": str(match.pk)}, token=stranger.token)
    assert payload_codes(refused["data"]["requestAnalysis"]) == ["forbidden"]
    anonymous = gql(REQUEST, {"id": str(match.pk)})
    assert payload_codes(anonymous["data"]["requestAnalysis"]) == ["not_authenticated"]
    assert Analysis.objects.count() == 0

    requested = gql(REQUEST, {"id": str(match.pk)}, token=player.token)["data"]
    assert requested["requestAnalysis"]["errors"] == []
    assert requested["requestAnalysis"]["analysis"]["status"] == "queued"
    running.run_analysis(Analysis.objects.get().pk)
    read = gql(READ, {"id": str(match.pk)})["data"]["matchAnalysis"]
    assert read == api_client.get(analysis_url(match.pk)).json()
    assert read["status"] == "done" and len(read["decisions"]) == match.ply


def _run_and_close(analysis_id: int) -> None:
    try:
        running.run_analysis(analysis_id)
    finally:
        connection.close()  # this thread's own session


def test_progress_is_pushed_while_it_runs(make_user, settings):
    settings.CHANNEL_LAYERS = channel_layers_setting()  # this process publishes the progress
    player = make_player(make_user)
    match = finished_match(player.user, "hansa")
    gql(REQUEST, {"id": str(match.pk)}, token=player.token)
    analysis = Analysis.objects.get()

    async def scenario(address):
        subscriber = Subscriber(address)
        try:
            assert (await subscriber.open())["type"] == "connection_ack"
            await subscriber.subscribe(PROGRESS, {"id": str(match.pk)})
            opening = await subscriber.receive()
            assert "errors" not in opening["payload"], opening
            first = opening["payload"]["data"]["analysisProgress"]
            assert first == {"matchId": str(match.pk), "status": "queued", "done": 0,
                             "total": match.ply}
            worker = threading.Thread(target=_run_and_close, args=(analysis.pk,))
            worker.start()
            pushes = []
            while True:
                message = await subscriber.receive(timeout=60)
                if message["type"] == "complete":
                    break
                pushes.append(message["payload"]["data"]["analysisProgress"])
            await asyncio.to_thread(worker.join)
            assert pushes[-1] == {"matchId": str(match.pk), "status": "done",
                                  "done": match.ply, "total": match.ply}
            dones = [push["done"] for push in pushes]
            assert dones == sorted(dones)  # never backwards
        finally:
            await subscriber.close()

    with running_daphne({name: str(value) for name, value in TINY.items()}) as address:
        asyncio.run(scenario(address))
