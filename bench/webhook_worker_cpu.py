"""What "your turn" webhooks cost the service per event at a steady rate, with no game
in the way: a real Celery worker (beat in it, as the load test runs it) drains events
this process pushes the way a web process does (games.webhooks.event_queue.push), and
sends them to a local receiver that verifies each with ``standardwebhooks``:

    eval "$(scripts/services.sh env)"
    .venv/bin/python bench/webhook_worker_cpu.py --rate 70 --seconds 60

It prints, over the pushing window (plus the time the last deliveries take), the
worker's CPU and PostgreSQL's per event delivered, and the delivery latency from the
push (``--rate 0``: what both spend idle over the same time). The worker runs as served
(DEBUG off, its own throwaway keys), niced as configured (WORKER_NICE); the receiver
runs at the lowest priority (bench/webhook_receiver.py). ``--py-spy FILE`` samples the
worker's threads holding the GIL (its CPU in Python) into a collapsed-stack file.
The load test (``bench/load_test.py --socket --webhooks``) measures the same cost beside
the games; this one says where it is without them.
"""

from __future__ import annotations

import argparse
import base64
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from rolling_restart import ping_worker  # noqa: E402 - bench/ is the script folder
from webhook_receiver import BENCH_ENV, Receiver, register_app  # noqa: E402

from bench.cpu_accounting import postgres_postmaster_pid, tree_cpu_seconds  # noqa: E402
from bench.percentiles import percentile  # noqa: E402
from bench.process_groups import stop_process_groups  # noqa: E402

os.environ.update(BENCH_ENV)
VAR = ROOT / ".var" / "bench-webhook-worker"


def start_worker() -> subprocess.Popen:
    env = {**os.environ, "DEBUG": "false", "LOG_LEVEL": "WARNING",
           "SECRET_KEY": f"bench-{secrets.token_hex(16)}",
           "RECORD_SIGNING_KEYS": base64.b64encode(secrets.token_bytes(32)).decode()}
    shutil.rmtree(VAR, ignore_errors=True)
    VAR.mkdir(parents=True)
    return subprocess.Popen(
        [str(ROOT / ".venv" / "bin" / "celery"), "-A", "config", "worker", "-l", "warning",
         "-B", "--schedule", str(VAR / "beat-schedule"), "-n", "webhook-cpu@%h"],
        cwd=ROOT, env=env, stdout=open(VAR / "worker.log", "wb"), stderr=subprocess.STDOUT,
        start_new_session=True)


def wait_for_worker(app, worker: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if ping_worker(app, worker):  # this bench's worker, by its name
            return
    raise SystemExit(f"the worker did not answer in {seconds} s: see {VAR}/worker.log")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=70, help="events per second")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--users", type=int, default=500)
    parser.add_argument("--py-spy", type=Path, help="collapsed stacks of the worker's GIL")
    options = parser.parse_args()

    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection

    from config.celery import app as celery_app
    from games.webhooks import event_queue
    from games.webhooks.models import Delivery
    from infra.background_sends import wait_until_sent

    users = list(get_user_model().objects.order_by("id")[:options.users])
    receiver = Receiver()
    app, endpoint = register_app("bench-worker-cpu-owner", users, receiver.url, ["your_turn"])
    receiver.secret = endpoint.secret
    worker = start_worker()
    spy = None
    try:
        wait_for_worker(celery_app, worker)
        postmaster = postgres_postmaster_pid(connection)
        event_queue.push("your_turn", [users[0].pk], {"warm": True})  # connections, imports
        time.sleep(2)
        pushed_at: dict[int, float] = {}
        if options.py_spy:
            spy = subprocess.Popen([str(ROOT / ".venv" / "bin" / "py-spy"), "record", "--gil",
                                    "--format", "raw",
                                    "--rate", "50", "--pid", str(worker.pid),
                                    "--duration", str(int(options.seconds)),
                                    "--output", str(options.py_spy)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        cpu_worker, cpu_pg = tree_cpu_seconds([worker.pid]), tree_cpu_seconds([postmaster])
        started = time.monotonic()
        count = int(options.rate * options.seconds)
        for index in range(count):
            due = started + index / options.rate
            time.sleep(max(0.0, due - time.monotonic()))
            user = users[index % len(users)]
            pushed_at[index] = time.time()
            event_queue.push("your_turn", [user.pk], {"match_id": index, "ply": 1,
                                                       "seat": 0, "game": "han"})
        wait_until_sent()
        if not count:
            time.sleep(options.seconds)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and len(receiver.arrivals) < count + 1:
            time.sleep(0.05)
        wall = time.monotonic() - started
        cpu_worker = tree_cpu_seconds([worker.pid]) - cpu_worker
        cpu_pg = tree_cpu_seconds([postmaster]) - cpu_pg
        if spy is not None:
            spy.wait(60)  # it writes its file when its --duration ends
        with receiver.lock:
            arrivals = [(payload, at) for payload, at in receiver.arrivals
                        if "match_id" in payload["data"]]
        latencies = [(at - pushed_at[payload["data"]["match_id"]]) * 1000
                     for payload, at in arrivals]
        rows = Delivery.objects.filter(endpoint=endpoint).count()
        delivered = len(arrivals)
        print(f"{count} events pushed at {options.rate:g}/s over {options.seconds:g} s; "
              f"{delivered} delivered and verified, {len(receiver.bad)} bad; {rows} rows")
        if delivered:
            print(f"worker CPU {cpu_worker:.2f} s = {cpu_worker / delivered * 1000:.2f} ms "
                  f"per event; PostgreSQL {cpu_pg:.2f} s = "
                  f"{cpu_pg / delivered * 1000:.2f} ms per event (window {wall:.0f} s, "
                  f"its idle cost included: compare with --rate 0)")
            print(f"delivery from the push: p50 {statistics.median(latencies):.0f} ms, "
                  f"p99 {percentile(latencies, 0.99):.0f} ms; the receiver's CPU "
                  f"{receiver.cpu_seconds:.2f} s")
        else:  # --rate 0: what the worker and PostgreSQL spend idle (beat, polling)
            print(f"idle: worker CPU {cpu_worker:.2f} s, PostgreSQL {cpu_pg:.2f} s "
                  f"over {wall:.0f} s")
    finally:
        if spy is not None and spy.poll() is None:
            spy.kill()
        stop_process_groups([worker])
        receiver.stop()
        app.delete()


if __name__ == "__main__":
    main()
