"""Web Push latency from the commit: how long after a match's start commits does its
"match started" push, encrypted and VAPID-signed, reach the player's push service through
a real Celery worker (two hops: ``fan_out`` asks the preferences, ``push_event`` sends).

    DEBUG=true .venv/bin/python bench/push_delivery.py [--matches 200] [--concurrency 4]

Starts one worker (threads) on its own queues with a throwaway VAPID key, a local push
service on 127.0.0.1 (let through by WEBHOOK_ALLOWED_ADDRESSES for the bench only) that
decrypts each push with the browser's keys made here (``http_ece``), gives ``--matches``
players a subscription and "match started" on, and starts a match for each (against a
bot), the first (awaited) as a warm-up. Prints the pushes' p50, p90, p99 and max from each
match's commit to the arrival, and how many failed to decrypt. Uses the development
database and broker and deletes what it made.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(1, str(ROOT / "bench"))
from bench_env import prepare  # noqa: E402
from process_groups import stop_process_groups  # noqa: E402

from bench.percentiles import percentile  # noqa: E402

QUEUES = {"CELERY_TASK_DEFAULT_QUEUE": "bench_push", "CELERY_BOT_QUEUE": "bench_push_bots"}
os.environ.update(QUEUES)
os.environ.setdefault("WEBHOOK_HTTP_URLS", "true")
os.environ.setdefault("WEBHOOK_ALLOWED_ADDRESSES", "127.0.0.1")
os.environ.setdefault("NOTIFICATION_REACH_CHECK_SECONDS", "0")
os.environ.setdefault("WEBPUSH_VAPID_PRIVATE_KEY", base64.urlsafe_b64encode(
    secrets.token_bytes(32)).decode().rstrip("="))
prepare()

import django  # noqa: E402

django.setup()

import http_ece  # noqa: E402
from cryptography.hazmat.primitives import serialization  # noqa: E402
from cryptography.hazmat.primitives.asymmetric import ec  # noqa: E402

from accounts.models import User  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match  # noqa: E402
from games.notifications import preferences, push  # noqa: E402


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--concurrency", type=int, default=4)
    args = parser.parse_args()

    browser_key = ec.generate_private_key(ec.SECP256R1())
    auth_secret = secrets.token_bytes(16)
    arrivals: dict[int, float] = {}
    bad = []
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            body = self.rfile.read(int(self.headers["Content-Length"]))
            at = time.time()
            try:
                message = json.loads(http_ece.decrypt(body, private_key=browser_key,
                                                      auth_secret=auth_secret,
                                                      version="aes128gcm"))
                if message["type"] == "match_started":
                    with lock:
                        arrivals.setdefault(message["data"]["match_id"], at)
            except Exception as error:  # noqa: BLE001 - counted, printed
                bad.append(repr(error))
            self.send_response(201)
            self.end_headers()

        def log_message(self, *a):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    tag = secrets.token_hex(4)
    public = _b64url(browser_key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint))
    players = [User.objects.create_user(username=f"pushbench-{tag}-{i}", password="x" * 12)
               for i in range(args.matches)]
    for index, player in enumerate(players):
        push.subscribe(player, {"endpoint": f"http://127.0.0.1:{server.server_port}/{index}",
                                "keys": {"p256dh": public, "auth": _b64url(auth_secret)}},
                       "en")
        preferences.set_preferences(player.pk, [("push", "match_started", True)])

    logs = ROOT / ".var" / "bench-push"
    logs.mkdir(parents=True, exist_ok=True)
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning",
         "-Q", ",".join(QUEUES.values()), "--pool=threads",
         f"--concurrency={args.concurrency}", "--without-gossip", "--without-mingle",
         "-n", f"pushbench-{os.getpid()}@%h"],
        cwd=ROOT, env={**os.environ, "LOG_LEVEL": "WARNING"},
        stdout=open(logs / "worker.log", "wb"), stderr=subprocess.STDOUT,
        start_new_session=True)
    committed: dict[int, float] = {}
    made = []
    try:
        first = match_services.create_match(user=players[0], game="han", players=2,
                                            bot_seats={1: "greedy"})
        made.append(first.pk)
        warm_until = time.monotonic() + 60
        while first.pk not in arrivals and time.monotonic() < warm_until:
            time.sleep(0.1)
        for player in players[1:]:
            match = match_services.create_match(user=player, game="han", players=2,
                                                bot_seats={1: "greedy"})
            committed[match.pk] = time.time()
            made.append(match.pk)
        deadline = time.monotonic() + 120
        while len(arrivals) < len(committed) + 1 and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        stop_process_groups([worker])
        server.shutdown()
        Match.objects.filter(pk__in=made).delete()
        User.objects.filter(username__startswith=f"pushbench-{tag}").delete()

    latencies = [(arrivals[pk] - committed[pk]) * 1000 for pk in committed if pk in arrivals]
    print(f"matches {len(committed)}, pushes arrived {len(latencies)}, "
          f"not decrypted {len(bad)}")
    if latencies:
        print("push latency from commit (ms): "
              + ", ".join(f"{name} {percentile(latencies, share):.1f}" for name, share in
                          (("p50", 0.5), ("p90", 0.9), ("p99", 0.99), ("max", 1.0))))


if __name__ == "__main__":
    main()
