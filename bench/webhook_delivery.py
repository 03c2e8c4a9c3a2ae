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
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))

from bench_env import prepare  # noqa: E402
from process_groups import stop_process_groups  # noqa: E402

QUEUES = {"CELERY_TASK_DEFAULT_QUEUE": "bench_webhooks", "CELERY_BOT_QUEUE": "bench_wh_bots"}
os.environ.update(QUEUES)
os.environ.setdefault("WEBHOOK_HTTP_URLS", "true")
os.environ.setdefault("WEBHOOK_ALLOWED_ADDRESSES", "127.0.0.1")
os.environ.setdefault("WEBHOOK_ENDPOINTS_CHECK_SECONDS", "0")
prepare()

import django  # noqa: E402

django.setup()

from django.utils import timezone  # noqa: E402
from oauth2_provider.models import get_access_token_model  # noqa: E402
from standardwebhooks.webhooks import Webhook  # noqa: E402

from accounts.apps_oauth.models import App  # noqa: E402
from accounts.models import User  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402
from games.webhooks import services as webhook_services  # noqa: E402


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    arrivals: dict[int, float] = {}
    bad = []
    lock = threading.Lock()
    state: dict = {}

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"]))
            at = time.time()
            try:
                payload = Webhook(state["secret"]).verify(
                    body, {k.lower(): v for k, v in self.headers.items()})
                with lock:
                    arrivals.setdefault(payload["data"]["match_id"], at)
            except Exception as error:  # noqa: BLE001 - counted, printed
                bad.append(repr(error))
            self.send_response(204)
            self.end_headers()

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tag = secrets.token_hex(4)
    owner = User.objects.create_user(username=f"whbench-owner-{tag}", password="x" * 12)
    app = App.objects.create(user=owner, name="bench", redirect_uris="https://b.example/cb")
    endpoint = webhook_services.create_endpoint(
        app, url=f"http://127.0.0.1:{server.server_port}/", event_types=["match_started"])
    state["secret"] = endpoint.secret
    players = [User.objects.create_user(username=f"whbench-{tag}-{i}", password="x" * 12)
               for i in range(args.matches)]
    for player in players:
        get_access_token_model().objects.create(
            user=player, application=app, token=secrets.token_urlsafe(32),
            scope="account:read", expires=timezone.now() + timedelta(hours=1))

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
        while first.pk not in arrivals and time.monotonic() < warm_until:
            time.sleep(0.1)
        committed_warm = first.pk
        for player in players[1:]:
            match = match_services.create_match(user=player, game="han", players=2,
                                                bot_seats={1: "greedy"})
            committed[match.pk] = time.time()
        deadline = time.monotonic() + 120
        while len(arrivals) < len(committed) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop_process_groups([worker])
        server.shutdown()
        Match.objects.filter(pk__in=[*committed, committed_warm]).delete()
        App.objects.filter(pk=app.pk).delete()
        User.objects.filter(username__startswith=f"whbench-{tag}").delete()
        owner.delete()

    latencies = [(arrivals[pk] - committed[pk]) * 1000 for pk in committed if pk in arrivals]
    print(f"matches {len(committed)}, deliveries arrived {len(latencies)}, "
          f"not verified {len(bad)}")
    if latencies:
        print("delivery latency from commit (ms): "
              + ", ".join(f"{name} {percentile(latencies, share):.1f}" for name, share in
                          (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))))


if __name__ == "__main__":
    main()
