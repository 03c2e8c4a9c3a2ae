"""Webhook delivery latency from the commit: how long after a match's start commits does
its signed "match_started" webhook reach the app's receiver, through a real Celery worker.

    DEBUG=true .venv/bin/python bench/webhook_delivery.py [--matches 200] [--concurrency 4]

Starts one worker (threads) on its own queues, a local HTTP receiver on 127.0.0.1 (let
through by WEBHOOK_ALLOWED_ADDRESSES for the bench only) that verifies each delivery with
the ``standardwebhooks`` package, registers one endpoint of one app, connects
``--matches`` players to it and starts a match for each (against a bot), one after
the other from this process, the first (awaited) as a warm-up. Prints the
deliveries' p50, p90, p99 and max from each match's commit (the create call returned) to
the receiver's arrival, and how many failed to verify. Uses the development database and
broker and deletes what it made.
"""

from __future__ import annotations

import argparse
import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from bench_env import prepare  # noqa: E402
from process_groups import stop_process_groups  # noqa: E402
from webhook_receiver import BENCH_ENV, Receiver, register_app  # noqa: E402

QUEUES = {"CELERY_TASK_DEFAULT_QUEUE": "bench_webhooks", "CELERY_BOT_QUEUE": "bench_wh_bots"}
os.environ.update(QUEUES)
for name, value in BENCH_ENV.items():
    os.environ.setdefault(name, value)
os.environ.setdefault("WEBHOOK_ENDPOINTS_CHECK_SECONDS", "0")
prepare()

import django  # noqa: E402

django.setup()

from accounts.apps_oauth.models import App  # noqa: E402
from accounts.models import User  # noqa: E402
from bench.percentiles import percentile  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    receiver = Receiver()
    tag = secrets.token_hex(4)
    players = [User.objects.create_user(username=f"whbench-{tag}-{i}", password="x" * 12)
               for i in range(args.matches)]
    app, endpoint = register_app(f"whbench-owner-{tag}", players, receiver.url,
                                 ["match_started"])
    receiver.secret = endpoint.secret

    def arrived() -> dict[int, float]:  # match id -> its first delivery's arrival
        with receiver.lock:
            found: dict[int, float] = {}
            for payload, at in receiver.arrivals:
                found.setdefault(payload["data"]["match_id"], at)
            return found

    logs = ROOT / ".var" / "bench-webhooks"
    logs.mkdir(parents=True, exist_ok=True)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning",
         "-Q", ",".join(QUEUES.values()), "--pool=threads",
         f"--concurrency={args.concurrency}", "--without-gossip", "--without-mingle",
         "-n", f"whbench-{os.getpid()}@%h"],
        cwd=ROOT, env={**os.environ, "LOG_LEVEL": "WARNING"},
        stdout=open(logs / "worker.log", "wb"), stderr=subprocess.STDOUT,
        start_new_session=True)
    committed: dict[int, float] = {}
    committed_warm = None
    try:
        # warm-up: the first player's delivery, awaited, so the worker's start is not timed
        first = match_services.create_match(user=players[0], game="han", players=2,
                                            bot_seats={1: "greedy"})
        warm_until = time.monotonic() + 60
        while first.pk not in arrived() and time.monotonic() < warm_until:
            time.sleep(0.1)
        committed_warm = first.pk
        for player in players[1:]:
            match = match_services.create_match(user=player, game="han", players=2,
                                                bot_seats={1: "greedy"})
            committed[match.pk] = time.time()
        deadline = time.monotonic() + 120
        while len(arrived()) < len(committed) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop_process_groups([worker])
        receiver.stop()
        Match.objects.filter(pk__in=[*committed, committed_warm]).delete()
        App.objects.filter(pk=app.pk).delete()
        User.objects.filter(username__startswith=f"whbench-{tag}").delete()
        User.objects.filter(username=f"whbench-owner-{tag}").delete()

    arrivals, bad = arrived(), receiver.bad
    latencies = [(arrivals[pk] - committed[pk]) * 1000 for pk in committed if pk in arrivals]
    print(f"matches {len(committed)}, deliveries arrived {len(latencies)}, "
          f"not verified {len(bad)}")
    if latencies:
        print("delivery latency from commit (ms): "
              + ", ".join(f"{name} {percentile(latencies, share):.1f}" for name, share in
                          (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))))


if __name__ == "__main__":
    main()
