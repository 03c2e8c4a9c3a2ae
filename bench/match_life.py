"""What a match's life around its moves costs the server, step by step, in one process.

    .venv/bin/python bench/match_life.py [--lives 100]

The load test's slowest seconds are waves of matches ending and starting (docs/capacity.md,
session 11): each end and start costs the web tier, the worker and PostgreSQL more than a
move does. This times, in CPU ms of this process (``time.process_time``) and wall ms, each
step of one such life as the load test's player goes through it, a Hansa match against a
greedy bot:

- ``create``: ``POST /api/v1/matches/`` through the whole Django + DRF stack (test client);
- ``subscribe x2``: a play socket's ``subscribe`` of the seat and of a spectator
  (games/play/operations.py ``subscription``), as a web process's play thread runs it;
- ``bot opening``: the worker's first bot turn of the match (if the bot acts first);
- ``score``: the worker's scoring task, from a match that has just ended
  (games/matches/scoring.py; its frames built by games/live/fanout.py), here after a
  resignation, with a listener on its play channel as a followed match has (so the
  end's frames are built, as under load);
- ``hub read``: what each web process with a follower spent on the end before the worker
  built its pushes (games/play/operations.py ``bodies_from_database``), for comparison.

PostgreSQL's own CPU is not in these figures (another process). Uses the development
database (DATABASE_URL) and deletes what it creates.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()

import django  # noqa: E402

django.setup()

import redis  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.models import AnonymousUser  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games.clocks import services as clock_services  # noqa: E402
from games.live.channels import play_channel  # noqa: E402
from games.matches import bot_moves, scoring, selectors  # noqa: E402
from games.matches.models import Match  # noqa: E402
from games.play import operations  # noqa: E402
from infra import pubsub  # noqa: E402

STEPS = ("create", "subscribe x2", "bot opening", "score", "hub read")


class Timer:
    def __init__(self) -> None:
        self.cpu: dict[str, list[float]] = {step: [] for step in STEPS}
        self.wall: dict[str, list[float]] = {step: [] for step in STEPS}

    def timed(self, step: str, work):
        cpu, wall = time.process_time(), time.perf_counter()
        result = work()
        self.cpu[step].append((time.process_time() - cpu) * 1000)
        self.wall[step].append((time.perf_counter() - wall) * 1000)
        return result


def one_life(timer: Timer, client: APIClient, user, listener) -> int:
    response = timer.timed("create", lambda: client.post(
        "/api/v1/matches/", {"game": "hansa", "players": 2, "bot_seats": {"1": "greedy"}},
        format="json"))
    assert response.status_code == 201, response.content[:300]
    match_id = int(response.json()["id"])
    listener.subscribe(play_channel(match_id))
    timer.timed("subscribe x2", lambda: (
        operations.subscription(match_id, None, user, "bench"),
        operations.subscription(match_id, None, AnonymousUser(), "bench")))
    match = selectors.get_match(match_id)
    if 1 in match.to_act:
        timer.timed("bot opening", lambda: bot_moves.play_bot_turn(
            match_id=match_id, seat=1, ply=match.ply))
    clock_services.resign(user=user, match_id=match_id)
    timer.timed("score", lambda: scoring.score_match(match_id=match_id))
    finished = Match.objects.get(pk=match_id)
    timer.timed("hub read", lambda: operations.bodies_from_database(
        match_id, [("seat", user, finished.ply), ("spectator", AnonymousUser(), finished.ply)]))
    listener.unsubscribe(play_channel(match_id))
    return match_id


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lives", type=int, default=100)
    args = parser.parse_args()
    user, _ = get_user_model().objects.get_or_create(username="bench-match-life")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    connection = redis.Redis.from_url(pubsub.redis_url())
    listener = connection.pubsub(ignore_subscribe_messages=True)
    listener.subscribe("bench-match-life")  # the connection is open before the timing
    timer = Timer()
    made = []
    try:
        for _ in range(3):  # warm up: imports, prepared statements, the engines' tables
            made.append(one_life(Timer(), client, user, listener))
        for _ in range(args.lives):
            made.append(one_life(timer, client, user, listener))
    finally:
        listener.close()
        connection.close()
        Match.objects.filter(pk__in=made).delete()
    print(f"{args.lives} match lives (Hansa against a greedy bot), ms per life, this process")
    print(f"{'step':<14} {'cpu p50':>8} {'cpu mean':>9} {'wall p50':>9} {'n':>5}")
    for step in STEPS:
        cpu, wall = timer.cpu[step], timer.wall[step]
        if not cpu:
            continue
        print(f"{step:<14} {statistics.median(cpu):8.2f} {statistics.mean(cpu):9.2f} "
              f"{statistics.median(wall):9.2f} {len(cpu):5d}")


if __name__ == "__main__":
    main()
