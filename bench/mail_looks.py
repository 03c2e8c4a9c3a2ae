"""What recording "the player looked" (games/mail/looks.py) costs the hot path: a REST read
of a match (``GET /api/v1/matches/<id>/``, the pollers' request) with the record and with
it switched off, in alternating blocks; the record's own call, at a ply already written
(every repeated read) and at a new ply; and how many Redis writes the reads made.

    eval "$(scripts/services.sh env)"; nice .venv/bin/python bench/mail_looks.py [--reads 2000]

Uses the development database and Redis (as the owner role) and deletes what it made.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from bench_env import prepare  # noqa: E402

prepare()

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django_redis import get_redis_connection  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rest_framework.test import APIClient  # noqa: E402

from bench.percentiles import percentile  # noqa: E402
from games.mail import looks  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402
from infra.background_sends import wait_until_sent  # noqa: E402


def _evals() -> int:
    stats = get_redis_connection("default").info("commandstats")
    return int(stats.get("cmdstat_eval", {}).get("calls", 0))


def _percentiles(samples: list[float]) -> str:
    p50, p90, p99 = (percentile(samples, share) * 1000 for share in (0.5, 0.9, 0.99))
    return f"p50 {p50:.3f} ms, p90 {p90:.3f} ms, p99 {p99:.3f} ms"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args()
    users = [get_user_model().objects.create_user(f"bench-mail-{n}-{time.time_ns() % 10**8}")
             for n in range(2)]
    match = match_services.create_match(user=users[0], game="han", players=2)
    match_services.join_match(user=users[1], match_id=match.pk)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=users[0])}")
    url = f"/api/v1/matches/{match.pk}/"
    real_saw = looks.saw
    timings: dict[str, list[float]] = {"with the record": [], "without": []}
    try:
        before = _evals()
        for _ in range(20):
            client.get(url)  # warm up
        wait_until_sent()
        block = 100
        for start in range(0, args.reads * 2, block):
            recording = (start // block) % 2 == 0
            looks.saw = real_saw if recording else (lambda *_args: None)
            name = "with the record" if recording else "without"
            for _ in range(block):
                began = time.perf_counter()
                assert client.get(url).status_code == 200
                timings[name].append(time.perf_counter() - began)
        looks.saw = real_saw
        wait_until_sent()
        writes = _evals() - before
        for name, samples in timings.items():
            print(f"GET {url} {name}: {len(samples)} reads, {_percentiles(samples)}, "
                  f"mean {statistics.fmean(samples) * 1000:.3f} ms")
        print(f"Redis writes (EVAL) for {args.reads * 2 + 20} reads at one ply: {writes}")

        calls = 200_000
        began = time.perf_counter()
        for _ in range(calls):
            looks.saw(users[0].pk, match.pk, 0)
        print(f"looks.saw at a ply already written: "
              f"{(time.perf_counter() - began) / calls * 1e9:.0f} ns per call")
        # a busy hub: each move shown to several seated sockets, each a new record (distinct
        # readers of one match, so none folds into another)
        records = 5000
        evals = _evals()
        began = time.perf_counter()
        for reader in range(records):
            looks.saw(10**9 + reader, match.pk, 1)
        handed = time.perf_counter() - began
        wait_until_sent()
        drained = time.perf_counter() - began
        print(f"looks.saw at a new ply: {handed / records * 1e6:.2f} µs per call on the "
              f"caller's thread; the sender thread stored {records} records in "
              f"{drained:.2f} s ({records / drained:.0f} records/s, "
              f"{_evals() - evals} EVALs in pipelines)")
    finally:
        looks.saw = real_saw
        Match.objects.filter(pk=match.pk).delete()
        get_redis_connection("default").delete(f"mail:seen:{match.pk}")
        for user in users:
            user.delete()


if __name__ == "__main__":
    main()
