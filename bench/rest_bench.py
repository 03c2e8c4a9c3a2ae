"""How long a REST move submission takes, client to commit, beside the floor.

    .venv/bin/python bench/rest_bench.py [--moves 300]

Plays two-person Han matches (Ways of Diplomacy) through ``POST /api/v1/matches/{id}/moves/``
with the DRF test client: the whole Django + DRF + token auth + service + PostgreSQL stack,
minus only the socket. Each timed request is one move: lock, engine apply, append, commit
and the on-commit publish. Beside it, in the same run and on the same connection:

- floor: one ORM insert of a ``Move`` row and its commit (``transaction.atomic``), the least
  any submission must pay;
- a cheap authenticated GET through the same HTTP stack (``/api/v1/games/han/``).

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
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import transaction  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from games import services  # noqa: E402
from games.models import Match, Move  # noqa: E402

clock = time.perf_counter


def percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def summary(name: str, samples: list[float]) -> str:
    return (f"{name:<46} median {statistics.median(samples):7.2f} ms   "
            f"p99 {percentile(samples, 0.99):7.2f} ms   (n={len(samples)})")


def client_for(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0]}")
    return client


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
    try:
        match = None
        while len(submit_ms) < args.moves:
            if match is None or Match.objects.get(pk=match.pk).status != "active":
                match = services.create_match(user=users[0], game="han", players=2)
                services.join_match(user=users[1], match_id=match.pk)
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

            started = clock()
            clients[seat].get("/api/v1/games/han/")
            get_ms.append((clock() - started) * 1000)

        scratch = Match.objects.create(game="han", players=2, seed="bench",
                                       seed_commitment="0" * 64, status="aborted")
        created.append(scratch.pk)
        for ply in range(args.moves):
            started = clock()
            with transaction.atomic():
                Move.objects.create(match=scratch, ply=ply, seat=0, move={"type": "pass"})
            floor_ms.append((clock() - started) * 1000)
    finally:
        for match_id in created:
            Match.objects.filter(pk=match_id).delete()
        for user in users:
            Token.objects.filter(user=user).delete()
            user.delete()

    print(summary("REST move submission (client to commit)", submit_ms))
    print(summary("floor: ORM insert of one Move + commit", floor_ms))
    print(summary("authenticated GET /api/v1/games/han/", get_ms))
    print(f"submission / floor (medians): "
          f"{statistics.median(submit_ms) / statistics.median(floor_ms):.1f}x")


if __name__ == "__main__":
    main()
