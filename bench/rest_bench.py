"""How long a REST move submission takes, client to commit, beside the floor.

    .venv/bin/python bench/rest_bench.py [--moves 300]

Plays two-person Han matches (Ways of Diplomacy) through ``POST /api/v1/matches/{id}/moves/``
with the DRF test client: the whole Django + DRF + token auth + service + PostgreSQL stack,
minus only the socket. Each timed request is one move: lock, engine apply, append, commit
and the on-commit publish. Beside it, in the same run and on the same connection:

- floor: one ORM insert of a ``Move`` row and its commit (``transaction.atomic``), the least
  any submission must pay;
- a cheap authenticated GET through the same HTTP stack (``/api/v1/games/han/``).

The three are interleaved (a move, a floor insert, a GET, a move...) so that both sides of
the ratio see the same load on a shared machine: quote the ratio, not the milliseconds.
It also counts the SQL statements of one move and of each poll (match, legal moves,
events, and a conditional GET answered 304).

Uses the development database (DATABASE_URL) and deletes what it creates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder

prepare()

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from bench.percentiles import percentile  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match, Move  # noqa: E402

clock = time.perf_counter

#: floor inserts after each move: the first pays for waking the connection after the
#: request, the others are a hot loop as in the earlier versions of this bench (the median
#: of the floor is the hot one)
FLOOR_PER_MOVE = 3




def summary(name: str, samples: list[float]) -> str:
    return (f"{name:<46} median {statistics.median(samples):7.2f} ms   "
            f"p99 {percentile(samples, 0.99):7.2f} ms   (n={len(samples)})")


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


def count_queries(clients, mover: int, match_id: int, ply: int) -> dict[str, int]:
    """SQL statements of one move and of each kind of poll, at ``ply`` of ``match_id``."""
    url = f"/api/v1/matches/{match_id}/"
    other = clients[1 - mover]  # the one who did not just move: a waiting poller
    counts = {}

    def count(name, call):
        with CaptureQueriesContext(connection) as context:
            response = call()
        # statements only: Django also logs BEGIN/COMMIT markers in some set-ups
        counts[name] = sum(
            not query["sql"].startswith(("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE"))
            for query in context.captured_queries)
        return response

    detail = count("poll: GET match", lambda: other.get(url))
    count("poll: GET legal-moves", lambda: other.get(url + "legal-moves/"))
    count("poll: GET events?since=N", lambda: other.get(url + f"events/?since={ply}"))
    etag = detail.headers.get("ETag")
    if etag:
        count("poll: GET match, If-None-Match (304)",
              lambda: other.get(url, HTTP_IF_NONE_MATCH=etag))
    to_act = detail.json()["to_act"][0]
    legal = clients[to_act].get(url + "legal-moves/").json()
    moved = count("move: POST moves (incl. its commit)", lambda: clients[to_act].post(
        url + "moves/", {"move": legal["moves"][0], "expected_ply": legal["ply"]},
        format="json"))
    assert moved.status_code == 201, moved.content
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    args = parser.parse_args()

    User = get_user_model()
    stamp = f"{os.getpid()}-{int(time.time())}"
    users = [User.objects.create_user(f"bench-{stamp}-{i}", password=None) for i in range(2)]
    clients = [client_for(user) for user in users]
    created: list[int] = []
    submit_ms: list[float] = []
    floor_ms: list[float] = []
    get_ms: list[float] = []
    queries: dict[str, int] = {}
    try:
        scratch = Match.objects.create(game="han", players=2, seed="bench",
                                       seed_commitment="0" * 64, status="aborted")
        created.append(scratch.pk)
        match = None
        while len(submit_ms) < args.moves:
            if match is None or Match.objects.get(pk=match.pk).status != "active":
                match = match_services.create_match(user=users[0], game="han", players=2)
                match_services.join_match(user=users[1], match_id=match.pk)
                created.append(match.pk)
            detail = clients[0].get(f"/api/v1/matches/{match.pk}/").json()
            seat = detail["to_act"][0]
            legal = clients[seat].get(f"/api/v1/matches/{match.pk}/legal-moves/").json()
            body = {"move": legal["moves"][len(submit_ms) % len(legal["moves"])],
                    "expected_ply": legal["ply"]}

            started = clock()
            response = clients[seat].post(f"/api/v1/matches/{match.pk}/moves/", body,
                                          format="json")
            submit_ms.append((clock() - started) * 1000)
            assert response.status_code == 201, response.content

            for _ in range(FLOOR_PER_MOVE):
                started = clock()
                with transaction.atomic():
                    Move.objects.create(match=scratch, ply=len(floor_ms), seat=0,
                                        move={"type": "pass"})
                floor_ms.append((clock() - started) * 1000)

            started = clock()
            clients[seat].get("/api/v1/games/han/")
            get_ms.append((clock() - started) * 1000)

            if not queries and response.json()["match"]["status"] == "active":
                queries = count_queries(clients, seat, match.pk, legal["ply"] + 1)
    finally:
        for match_id in created:
            Match.objects.filter(pk=match_id).delete()
        for user in users:
            Token.objects.filter(user=user).delete()
            user.delete()

    print(summary("REST move submission (client to commit)", submit_ms))
    print(summary("floor: ORM insert of one Move + commit", floor_ms))
    print(summary("authenticated GET /api/v1/games/han/", get_ms))
    for name, count in queries.items():
        print(f"SQL statements: {name:<40} {count}")
    print(f"submission / floor (medians): "
          f"{statistics.median(submit_ms) / statistics.median(floor_ms):.1f}x")


if __name__ == "__main__":
    main()
