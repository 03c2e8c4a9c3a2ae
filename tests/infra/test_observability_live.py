"""Metrics and logs of a whole played match, against the stack as production runs it
(tests/infra/observability_stack.py: two uvicorn processes, a Celery worker, the exporter):

- a Hansa match, human against a random bot: the human plays over REST and over the play
  socket in turn, a GraphQL subscription listens, the worker plays the bot and scores;
- the exporter's scrape has every family the issue asks for, with the match's true
  figures (its moves by mover, the refusal provoked, the bot's turns, the open sockets),
  and every metric the Grafana dashboard (deploy/grafana/dashboard.json) queries;
- every log line of every process is a JSON object; a REST move's request id is in the
  pushes it causes and in the worker's lines for the bot turn that answers it;
- no log line holds the password, the token, the secret key, the seed or a card that was
  never shown face up.
"""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from django.conf import settings

from games.matches.models import Match, Move
from games.matches.replay import iter_replay
from rules import get_engine
from tests.games.graphql.asgi_server import Subscriber
from tests.games.play.client import PlayClient
from tests.games.support import known_card_ids
from tests.infra import dashboard
from tests.infra.observability_stack import log_lines, running_stack

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow,
              pytest.mark.celery_worker]

PASSWORD = "observed-Pa55word-7421"
UPDATES = """
subscription Updates($id: ID!) { matchUpdates(matchId: $id) { matchId ply status } }
"""


def _value(families: dict, name: str, **labels) -> float:
    """The sum of the samples of ``name`` whose labels include ``labels``."""
    samples = [sample for family in families.values() for sample in family
               if sample.name == name
               and all(sample.labels.get(key) == value for key, value in labels.items())]
    assert samples, f"no sample {name}{labels}"
    return sum(sample.value for sample in samples)


class _Socket:
    """A play socket whose frames are read as they come (a reader that falls behind is
    cut off by the server)."""

    def __init__(self, client: PlayClient) -> None:
        self.client = client
        self.frames: list[dict] = []
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for text in self.client.ws:
            self.frames.append(json.loads(text))

    async def answer(self, ref: str, timeout: float = 20) -> dict:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = [frame for frame in self.frames if frame.get("ref") == ref]
            if found:
                return found[0]
            await asyncio.sleep(0.02)
        raise AssertionError(f"no answer to {ref}")


async def _play(stack, token: str, match_id: int) -> dict:
    """Play the human seat to the end, REST and socket in turn; what was seen."""
    client = await PlayClient.open(stack.web, token)
    subscribed = await client.request({"op": "subscribe", "match": str(match_id)},
                                      "subscribed")
    assert subscribed["op"] == "subscribed"
    play = _Socket(client)
    subscriber = Subscriber(stack.web, token=token)
    assert (await subscriber.open())["type"] == "connection_ack"
    await subscriber.subscribe(UPDATES, {"id": str(match_id)})
    await subscriber.receive()
    graphql_reader = asyncio.get_running_loop().create_task(_drain(subscriber))

    rest_ids, refs, turn, midway = [], [], 0, None
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        _status, match, _ = await asyncio.to_thread(
            stack.request, "GET", f"/api/v1/matches/{match_id}/", token=token)
        if match["status"] == "finished":
            break
        status, legal, _ = await asyncio.to_thread(
            stack.request, "GET", f"/api/v1/matches/{match_id}/legal-moves/", token=token)
        assert status == 200, legal
        if not legal["moves"]:
            await asyncio.sleep(0.1)  # the bot's turn, or the scoring, in the worker
            continue
        move, ply = legal["moves"][0], legal["ply"]
        if turn == 4:  # a GraphQL subscription completes at the end: count it now
            midway = await asyncio.to_thread(stack.scrape)
        if turn % 2 == 0:
            rest_id = f"obs-rest-{turn}"
            status, body, headers = await asyncio.to_thread(
                stack.request, "POST", f"/api/v1/matches/{match_id}/moves/",
                {"move": move, "expected_ply": ply}, token=token, request_id=rest_id)
            assert status == 201, body
            assert headers["x-request-id"] == rest_id
            rest_ids.append(rest_id)
        else:
            ref = f"s{turn}"
            await client.send({"op": "move", "ref": ref, "match": str(match_id),
                               "move": move, "expected_ply": ply})
            assert (await play.answer(ref))["op"] == "ack"
            refs.append(ref)
        turn += 1
    else:
        raise AssertionError("the match did not finish in time")

    scrape = await asyncio.to_thread(stack.scrape)  # the sockets still open
    await client.close()
    await subscriber.close()
    graphql_reader.cancel()
    await asyncio.gather(play.reader, graphql_reader, return_exceptions=True)
    return {"frames": play.frames, "rest_ids": rest_ids, "refs": refs, "scrape": scrape,
            "midway": midway}


async def _drain(subscriber: Subscriber) -> None:
    while True:
        await subscriber.receive(timeout=600)


def test_a_played_match_in_metrics_and_in_correlated_logs_that_hold_no_secret(tmp_path):
    # the service's own settings (the suite's put every rate limit out of reach), with a
    # limit low enough to be met
    with running_stack(tmp_path, DJANGO_SETTINGS_MODULE="config.settings",
                       THROTTLE_ANON_READ="3/min", THROTTLE_USER_READ="100000/min",
                       THROTTLE_MOVE="100000/min") as stack:
        status, registered, _ = stack.request(
            "POST", "/api/v1/auth/register/", {"username": "observed", "password": PASSWORD})
        assert status == 201, registered
        status, logged_in, _ = stack.request(
            "POST", "/api/v1/auth/token/", {"username": "observed", "password": PASSWORD})
        assert status == 200, logged_in
        token = logged_in["token"]
        status, created, headers = stack.request(
            "POST", "/api/v1/matches/", {"game": "hansa", "players": 2,
                                         "bot_seats": {"1": "random"}},
            token=token, request_id="obs-create")
        assert status == 201, created
        match_id = int(created["id"])
        # a refusal of the move service, and of a rate limit
        status, stale, _ = stack.request(
            "POST", f"/api/v1/matches/{match_id}/moves/",
            {"move": {"type": "pass"}, "expected_ply": 999}, token=token,
            request_id="obs-stale")
        assert status == 409 and stale["error"]["code"] == "stale_ply", stale
        statuses = [stack.request("GET", "/api/v1/games/hansa/")[0] for _ in range(6)]
        assert 429 in statuses, statuses
        bad_id = stack.request("GET", "/api/v1/health", request_id="no spaces\tallowed")[2]
        assert bad_id["x-request-id"] != "no spaces\tallowed"
        assert len(bad_id["x-request-id"]) == 32

        seen = asyncio.run(_play(stack, token, match_id))

        # the exporter sums every process's metrics; the gauges fall back once closed
        deadline = time.monotonic() + 15
        while _value(stack.scrape(), "websocket_connections_open") != 0:
            assert time.monotonic() < deadline, "the open sockets gauge never fell back"
            time.sleep(0.3)

    scrape = seen["scrape"]
    match = Match.objects.get(pk=match_id)
    moves = Move.objects.filter(match=match)
    assert _value(scrape, "game_moves_committed_total", game="hansa", mover="player") \
        == moves.filter(seat=0).count()
    assert _value(scrape, "game_moves_committed_total", game="hansa", mover="bot") \
        == moves.filter(seat=1).count() > 0
    # the stale move provoked above; a bot turn that lost a race in a simultaneous phase
    # is counted apart (mover="bot"), a no-op and no client's error
    assert _value(scrape, "game_move_refusals_total", code="stale_ply", mover="player") == 1
    assert _value(scrape, "game_bot_think_seconds_count", level="random") \
        >= moves.filter(seat=1).count()
    assert _value(scrape, "play_move_answer_seconds_count", outcome="ack") == len(seen["refs"])
    assert _value(scrape, "throttle_refusals_total", scope="anon_read") >= 1
    moves_route = _value(scrape, "django_http_requests_latency_seconds_by_view_method_count",
                         view="match-moves", method="POST")
    assert moves_route == len(seen["rest_ids"]) + 1  # and the stale one
    assert _value(scrape, "django_http_responses_total_by_status_view_method_total",
                  status="409", view="match-moves") == 1
    for kind in ("play", "graphql"):
        assert _value(scrape, "websocket_connections_open", socket=kind) == 1
        assert _value(seen["midway"], "websocket_subscriptions_open", socket=kind) == 1
    # the play socket still follows the finished match (a GraphQL subscription completes
    # once it has read the end, which may come just after this scrape)
    assert _value(scrape, "websocket_subscriptions_open", socket="play") == 1
    for queue in ("test_games", "test_bots"):
        assert _value(scrape, "celery_queue_length", queue=queue) >= 0
    # a task per bot turn at least: a turn of several moves may be played in one task
    # (games/matches/bot_moves.py)
    seats = list(moves.order_by("ply").values_list("seat", flat=True))
    bot_turns = sum(1 for ply, seat in enumerate(seats)
                    if seat == 1 and (ply == 0 or seats[ply - 1] != 1))
    assert _value(scrape, "celery_task_wait_seconds_count", queue="test_bots",
                  task="games.tasks.play_bot_turn") >= bot_turns > 0
    assert _value(scrape, "celery_task_run_seconds_count", queue="test_bots",
                  task="games.tasks.play_bot_turn", outcome="success") >= 1
    assert _value(scrape, "celery_task_run_seconds_count", queue="test_games",
                  task="games.tasks.score_match") == 1
    assert _value(scrape, "db_pool_max_connections") > 0
    assert _value(scrape, "db_pool_connections", state="idle") \
        + _value(scrape, "db_pool_connections", state="in_use") > 0

    # -- the Grafana dashboard reads only what is served --------------------------------------
    served = {sample.name for family in scrape.values() for sample in family}
    for title, expression in dashboard.queries():
        missing = dashboard.metric_names(expression) - served
        assert not missing, f"dashboard panel {title!r} reads {missing}, not served"

    # -- the logs: JSON lines, correlated -----------------------------------------------------
    lines = log_lines(stack.logs)
    worker = [line for line in lines if line.get("task")]
    web = [line for line in lines if not line.get("task")]
    assert any(line.get("request_id") == "obs-stale" for line in web), \
        "the refused move's warning carries its request id"
    pushed_ids = {frame.get("request_id") for frame in seen["frames"]
                  if frame.get("op") == "update"}
    # An update names the request of the latest move it shows: a follower that fell
    # behind and was read up to date gets one update for several moves, under the last
    # one's id (docs/operations.md "Logs"), so a REST move's id may reach the socket only
    # through the bot turn it caused (asserted below), never under another request's id.
    socket_ids = pushed_ids - set(seen["rest_ids"]) - {"obs-create", None}
    assert socket_ids, "moves made over the socket are pushed under their own ids"
    started_by = set(seen["rest_ids"]) | socket_ids | {"obs-create"}
    bot_turns = [line for line in worker if line["task"] == "games.tasks.play_bot_turn"]
    assert bot_turns and {line.get("request_id") for line in bot_turns} <= started_by
    assert {line.get("request_id") for line in bot_turns} & set(seen["rest_ids"])
    assert {line.get("request_id") for line in bot_turns} & socket_ids
    scoring = [line for line in worker if line["task"] == "games.tasks.score_match"]
    assert scoring and scoring[0]["request_id"] in started_by
    bot_pushes = [frame for frame in seen["frames"] if frame.get("op") == "update"
                  and any(move["seat"] == 1 for move in frame["moves"])]
    assert bot_pushes and {frame.get("request_id") for frame in bot_pushes} <= started_by | {None}

    # -- and nothing secret in them ---------------------------------------------------------
    text = "\n".join(path.read_text() for path in stack.logs)
    engine = get_engine("hansa")
    public = known_card_ids(match, match.ply, None)
    hidden = set()
    for _ply, _seat, _move, state in iter_replay(match):
        data = engine.to_json(state)
        for seat in range(2):
            hidden.update(data["hands"][seat], data["face_down"][seat])
        hidden.update(data["normal_deck"], data["luxury_deck"])
    never_shown = hidden - public
    assert never_shown, "the match should end with cards nobody saw"
    for secret in [PASSWORD, token, settings.SECRET_KEY, match.seed, *never_shown]:
        assert secret not in text, f"{secret[:12]}... is in a log line"
