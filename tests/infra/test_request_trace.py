"""One request id followed from the HTTP request to the worker's own lines (issue 40).

Against the stack as production runs it (tests/infra/observability_stack.py: uvicorn with
two processes, a Celery worker at ``-l info``, the exporter), reading their real logs:

- every HTTP request writes one JSON access line (logger ``access``): method, path
  without its query string, status, duration, user id and request id; uvicorn's own
  access lines (no id, no duration) are not written;
- a REST move's id is on Celery's own ``received`` and ``succeeded`` lines of the bot turn
  it enqueued, not only on the task's lines;
- a play socket's handshake id names the connection (its opened/closed lines, its
  ``X-Request-Id`` answer header), and each message is served under that id and its
  number: a socket move's id reaches the worker's lines too.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from rest_framework.authtoken.models import Token

from tests.games.play.client import PlayClient
from tests.infra.observability_stack import log_lines, running_stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow,
              pytest.mark.celery_worker]

SOCKET_ID = "trace-socket-7"
#: sent in a query string: it must never reach a log line
QUERY_SECRET = "q5ecret-in-the-query-9917"


def _worker_lines_of(stack, request_id: str) -> list[dict]:
    """The worker's lines so far under ``request_id`` (it is still writing: a line cut
    short at the end is read next time)."""
    found = []
    for text in stack.logs[1].read_text().splitlines():
        try:
            line = json.loads(text)
        except json.JSONDecodeError:
            continue
        if isinstance(line, dict) and line.get("request_id") == request_id:
            found.append(line)
    return found


def _celery_said(lines: list[dict], word: str) -> bool:
    """Celery's own line (its logger, not the task's) with ``word`` in it."""
    return any(line["logger"].startswith("celery.") and word in line["message"]
               for line in lines)


def _wait_for(condition, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.2)


def test_one_request_id_from_the_http_request_to_the_workers_own_lines(tmp_path, user):
    token = Token.objects.create(user=user).key
    with running_stack(tmp_path) as stack:
        status, created, _ = stack.request(
            "POST", "/api/v1/matches/", {"game": "hansa", "players": 2,
                                         "bot_seats": {"1": "random"}},
            token=token, request_id="trace-create")
        assert status == 201, created
        match_id = int(created["id"])
        assert stack.request("GET", "/api/v1/games/", request_id="trace-read")[0] == 200
        # an unknown parameter is refused (400), and logged without its value
        assert stack.request("GET", f"/api/v1/games/?token={QUERY_SECRET}",
                             request_id="trace-query")[0] == 400

        # REST moves until one sets off a bot turn: its id on Celery's own lines
        rest_id = None
        for turn in range(40):
            legal = stack.request("GET", f"/api/v1/matches/{match_id}/legal-moves/",
                                  token=token)[1]
            if not legal["moves"]:
                time.sleep(0.1)  # the bot's turn
                continue
            candidate = f"trace-rest-{turn}"
            status, body, headers = stack.request(
                "POST", f"/api/v1/matches/{match_id}/moves/",
                {"move": legal["moves"][0], "expected_ply": legal["ply"]},
                token=token, request_id=candidate)
            assert status == 201, body
            time.sleep(0.5)
            if _celery_said(_worker_lines_of(stack, candidate), "received"):
                rest_id = candidate
                break
        assert rest_id, "no REST move's id on a worker's received line"
        _wait_for(lambda: _celery_said(_worker_lines_of(stack, rest_id), "succeeded"),
                  "the bot turn's succeeded line under the move's id")

        socket_ids = asyncio.run(_socket_moves(stack, token, match_id))
        _wait_for(lambda: any(_celery_said(_worker_lines_of(stack, message_id), "received")
                              for message_id in socket_ids),
                  "a socket move's id on a worker's received line")

    lines = log_lines(stack.logs)
    access = [line for line in lines if line["logger"] == "access"]
    moved = [line for line in access if line.get("request_id") == rest_id]
    assert len(moved) == 1, moved
    assert moved[0]["method"] == "POST" and moved[0]["status"] == 201
    assert moved[0]["path"] == f"/api/v1/matches/{match_id}/moves/"
    assert moved[0]["user_id"] == user.pk
    assert isinstance(moved[0]["duration_ms"], float) and moved[0]["duration_ms"] > 0
    # a 2xx read writes its line too, anonymous
    read = [line for line in access if line.get("request_id") == "trace-read"]
    assert len(read) == 1 and read[0]["path"] == "/api/v1/games/", read
    assert read[0]["status"] == 200 and "user_id" not in read[0]
    queried = [line for line in access if line.get("request_id") == "trace-query"]
    assert [(line["path"], line["status"]) for line in queried] == [("/api/v1/games/", 400)]
    assert QUERY_SECRET not in "\n".join(path.read_text() for path in stack.logs)
    assert not [line for line in lines if line["logger"] == "uvicorn.access"]

    # the socket: its connection's lines under the handshake's id, its messages under it
    opened = [line for line in lines if line.get("request_id") == SOCKET_ID]
    assert [line["message"] for line in opened] == ["play socket opened",
                                                    "play socket closed"], opened
    assert opened[1]["messages"] == len(socket_ids) + 1  # the subscribe, the moves
    assert opened[1]["user_id"] == user.pk


async def _socket_moves(stack, token: str, match_id: int) -> list[str]:
    """Moves over a socket opened with a handshake id; the ids its messages were served
    under (the subscribe is message 1)."""
    client = await PlayClient.open(stack.web, token, headers={"X-Request-Id": SOCKET_ID})
    assert client.ws.response.headers["X-Request-Id"] == SOCKET_ID
    await client.subscribe(match_id)
    ids, number = [], 1
    deadline = time.monotonic() + 60
    while len(ids) < 3 and time.monotonic() < deadline:
        status, legal, _ = await asyncio.to_thread(
            stack.request, "GET", f"/api/v1/matches/{match_id}/legal-moves/", token=token)
        if legal.get("status") == "finished" or not legal.get("moves"):
            await asyncio.sleep(0.1)
            continue
        number += 1
        answer = await client.request(
            {"op": "move", "ref": f"m{number}", "match": str(match_id),
             "move": legal["moves"][0], "expected_ply": legal["ply"]}, "ack", "refused")
        assert answer["op"] == "ack", answer
        ids.append(f"{SOCKET_ID}.{number}")
    await client.close()
    assert ids, "no move over the socket"
    return ids
