"""Load test: N people each playing a two-seat match against a greedy bot, for a while,
then checks that nothing was lost, doubled or mis-scored.

    pip install -e '.[bench]'                 # locust
    .venv/bin/python bench/load_test.py --matches 200 --minutes 10
    .venv/bin/python bench/load_test.py --matches 200 --minutes 5 --instances 2
    .venv/bin/python bench/load_test.py --matches 200 400 800 --minutes 10   # a ramp
    .venv/bin/python bench/load_test.py --socket --matches 500 --minutes 10  # play socket
    .venv/bin/python bench/load_test.py --socket --chat --matches 500 --minutes 10
    .venv/bin/python bench/load_test.py --socket --webhooks --matches 500 --minutes 10

It starts the service itself, as production runs it (scripts/serve_web.sh: uvicorn with
WEB_PROCESSES processes, plus Celery workers on both queues), ``--instances`` times on
free ports (or ``--port``, ``--port``+1, ...) sharing this checkout's PostgreSQL and Redis (as two
machines would), with the throttles raised for the load client (THROTTLE_*). Then it
runs locust headless (bench/locustfile.py) with one user per concurrent match, spread
over the instances, and afterwards prints:

- move request p50/p95/p99, poll p99 (locust's own figures), errors;
- time from a human move to the bot's reply, p50/p99, from the log's timestamps (both
  are stamped by the server at commit);
- moves per second (people and bots) over the run;
- the checks: every move log has plies 0..n-1 with no gap and no duplicate, and every
  finished match replays from its seed and log to its stored result;
- CPU per part over the measured window (locust's run), from /proc
  (bench/cpu_accounting.py): the web tier, the workers, PostgreSQL (the cluster behind
  DATABASE_URL: its postmaster and backends), Redis and the load client, each in CPU
  seconds, as a share of the machine (cores x wall) and of what the part can use at most
  (one core for one process), and in CPU ms per human move; the machine's busy share
  from /proc/stat and what other jobs used; and which part is nearest to saturation.

With several sizes (``--matches 200 400 800``) it runs each in turn on the same
services, prints that for each, and ends with one table row per size.

``--rolling-restart-at S``: S seconds into each size, every web process and then every
worker is replaced one by one (bench/rolling_restart.py, docs/operations.md "Rolling
restarts"), and it prints what was replaced and how long it took; the errors, the
acknowledged moves against the log, and the checks then tell whether the restart cost
anything. (Replaced workers' CPU is not in the CPU figures.)

``--metrics-port P``: every web and worker process writes its metrics to one
PROMETHEUS_MULTIPROC_DIR (under .var/load/) and the exporter (infra/observability/
exporter.py) serves them on 127.0.0.1:P (0: a free port, printed) for a Prometheus to
scrape during the run; the window of each size is printed (UTC) for its queries
(docs/operations.md "Metrics": the move rate beside the load test's count), and the
service stays up ``--metrics-linger`` seconds (15) after the last size, so that a scrape
comes after the last move.

``--ramp-s R``: the users start evenly over R seconds instead of ``--spawn-rate`` per
second, and the run goes on ``--minutes`` after the ramp; locust's figures, the CPU, the
moves per second, the server's clock and the slow windows count from the ramp's end (the
checks cover the whole run). At the default spawn rate every match starts within the
first seconds, so matches of one game end, and their next ones start, in waves that
return every match length (docs/capacity.md, session 11); a service's matches start when
their players come, which a ramp as long as a match comes nearer to.

``--socket``: people play over the play socket (bench/socket_players.py: a player's and a
spectator's socket per match), with the figures and checks of bench/socket_checks.py.
``--chat`` (with ``--socket``): half the people also send a chat message every 20 s to
their match's spectators' room (bench/socket_chat.py); it prints the chat's ack and push
p50/p99, and the move ack p50/p99 of the people who chat against the others', in the
same run (docs/chat.md "Load").
``--webhooks`` (with ``--socket``, and with ``--chat`` or not): before the run, one app
with one webhook endpoint taking ``your_turn`` is registered, pointed at a local receiver
this process serves (bench/webhook_receiver.py: it verifies every delivery with the
``standardwebhooks`` package), and every load user is a user of that app (an access
token of it), so each of their turns is delivered by the workers (the default queue,
which they consume). The service gets the bench-only settings that let 127.0.0.1
through the SSRF check. It prints the deliveries received, the bad signatures, the
deliveries queued by their status, and the delivery latency p50/p99 from the commit of
the move that made the turn (its log stamp, ``Move.created_at`` of ply - 1 in the
payload's match, which the bot's move, committed in a worker, mostly is; a turn at ply 0,
made by the match's start, is counted but not timed), beside the move ack p50/p99; the
app is deleted afterwards, and an interrupted run's app before (docs/capacity.md).

Uses the development database and broker (DATABASE_URL, REDIS_URL); its users are
load-0 .. load-N-1 and their matches stay for inspection. Everything runs on this
machine, the load client included: read the figures as this machine's, under its load.
"""

from __future__ import annotations

import argparse
import base64
import csv
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import bench_env  # noqa: E402 - bench/ is the script folder
from cpu_accounting import CpuMeter, postgres_postmaster_pid, redis_server_pids  # noqa: E402
from process_groups import stop_process_groups  # noqa: E402 - bench/ is the script folder

from tests.ports import answers, free_port, wait_until_served  # noqa: E402

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

import socket_checks  # noqa: E402 - needs Django set up
from django.conf import settings  # noqa: E402
from django.db import connection, models  # noqa: E402
from django.utils import timezone  # noqa: E402
from load_checks import bot_replies_ms, check_matches, http, race_check  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402
from rolling_restart import ping_worker, roll  # noqa: E402
from webhook_receiver import BENCH_ENV, Receiver, register_app  # noqa: E402

from accounts.models import User  # noqa: E402
from bench.percentiles import percentile  # noqa: E402
from config.celery import app as celery_app  # noqa: E402
from games.matches.models import Match, Move  # noqa: E402

VAR = ROOT / ".var" / "load"
BIN = Path(sys.executable).parent
#: the load client may do what a crowd does from one address (bench_env's raised rate
#: limits), and every load client's socket comes from this machine's one address
RAISED_THROTTLES = {**bench_env.RAISED_THROTTLES, "PLAY_MAX_SOCKETS_PER_ADDRESS": "0"}
#: between two sizes of a ramp: the bots answer the last moves of one size before the
#: next size's window opens
SETTLE_S = 5
#: what each --rolling-restart-at restart did (bench/rolling_restart.py's roll())
ROLLED: list[dict] = []
#: --webhooks: after locust stops, the deliveries still on their way are awaited until
#: none came for this long (at most WEBHOOK_DRAIN_MAX_S)
WEBHOOK_QUIET_S, WEBHOOK_DRAIN_MAX_S = 3.0, 60.0
#: the user owning --webhooks' app (one per run, deleted at its end)
WEBHOOK_APP_OWNER = "whload-owner"




def make_tokens(count: int) -> list[str]:
    tokens = []
    for number in range(count):
        user, _ = User.objects.get_or_create(username=f"load-{number}")
        tokens.append(Token.objects.get_or_create(user=user)[0].key)
    return tokens


def start(command: list[str], env: dict, log: Path) -> subprocess.Popen:
    return subprocess.Popen(command, cwd=ROOT, env=env, stdout=open(log, "wb"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def wait_healthy(process: subprocess.Popen, port: int, url: str, timeout: float = 120) -> None:
    """Until ``process`` holds ``port`` and ``url`` answers: another server on the port
    never passes for ours (tests/ports.py, issue 39)."""
    try:
        wait_until_served(port, process, lambda: answers(url), timeout, url)
    except RuntimeError as error:
        raise SystemExit(f"{error}; see {VAR}") from None


def service_env(args) -> dict:
    """Served as in production (DEBUG off), which refuses the development key: a throwaway
    key per run unless the caller set one (kept for the run: a replacement must share it);
    the same for the record signing key."""
    os.environ.setdefault("SECRET_KEY", f"bench-{secrets.token_hex(16)}")
    os.environ.setdefault("RECORD_SIGNING_KEYS",
                          base64.b64encode(secrets.token_bytes(32)).decode())
    return {**os.environ, **RAISED_THROTTLES, "DEBUG": "false", "LOG_LEVEL": "WARNING",
            "WEB_PROCESSES": str(args.web_processes),
            "CELERY_WORKER_CONCURRENCY": str(args.worker_threads)}


#: processes beside the service (the metrics exporter), stopped with it
SIDECARS: list[subprocess.Popen] = []


def start_exporter(args, env: dict) -> None:
    """Every process's metrics in one directory, served by the exporter (module doc)."""
    directory = VAR / "prometheus"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    # in os.environ too: processes a rolling restart starts (service_env) write there
    os.environ["PROMETHEUS_MULTIPROC_DIR"] = env["PROMETHEUS_MULTIPROC_DIR"] = str(directory)
    port = args.metrics_port or free_port()
    SIDECARS.append(start([sys.executable, "-m", "infra.observability.exporter"],
                          {**env, "METRICS_PORT": str(port)}, VAR / "exporter.log"))
    wait_healthy(SIDECARS[-1], port, f"http://127.0.0.1:{port}/metrics")
    print(f"[load] metrics on http://127.0.0.1:{port}/metrics", flush=True)


def web_metrics_directory(args, instance: int) -> Path:
    """Where an instance's web processes write their metrics: the exporter's directory
    (``--metrics-port``), else one of the instance's own, given to it here."""
    if args.metrics_port is not None:
        return VAR / "prometheus"
    return VAR / f"prometheus-web-{instance}"


def metric_directories(args) -> list[Path]:
    """Every directory the web processes write their metrics to."""
    return sorted({web_metrics_directory(args, instance) for instance in range(args.instances)})


def start_service(args) -> tuple[list[subprocess.Popen], list[subprocess.Popen], list[str]]:
    """The web and the worker processes of every instance, and the instances' base URLs."""
    env = service_env(args)
    if args.metrics_port is not None:
        start_exporter(args, env)
    web, workers, hosts, ports = [], [], [], []
    for instance in range(args.instances):
        port = args.port + instance if args.port else free_port()
        ports.append(port)
        metrics = web_metrics_directory(args, instance)
        if args.metrics_port is None:  # given, it is ours to empty (scripts/serve_web.sh)
            shutil.rmtree(metrics, ignore_errors=True)
            metrics.mkdir(parents=True)
        web.append(start([str(ROOT / "scripts" / "serve_web.sh")],
                         {**env, "HOST": "127.0.0.1", "PORT": str(port),
                          "PROMETHEUS_MULTIPROC_DIR": str(metrics)},
                         VAR / f"web-{instance}.log"))
        for worker in range(args.workers):
            workers.append(start_worker(env, instance, worker))
        hosts.append(f"http://127.0.0.1:{port}")
    for process, port, host in zip(web, ports, hosts, strict=True):
        wait_healthy(process, port, f"{host}/api/v1/health")
    return web, workers, hosts


def start_worker(env: dict, instance: int, worker: int, generation: int = 0):
    """A Celery worker on both queues; the first one also runs beat. A replacement
    (``generation`` > 0, a rolling restart) gets a name of its own."""
    beat = ["-B", "--schedule", str(VAR / "beat-schedule")] \
        if instance == 0 and worker == 0 else []
    suffix = f"-r{generation}" if generation else ""
    return start([str(BIN / "celery"), "-A", "config", "worker", "-l", "warning", *beat,
                  "-n", f"load-{instance}-{worker}{suffix}@%h"],
                 env, VAR / f"worker-{instance}-{worker}.log")


def rolling_restart_later(args, web, workers) -> threading.Thread:
    """``--rolling-restart-at`` seconds into the run: every web tier, then every worker,
    replaced one by one (bench/rolling_restart.py); the outcome lands in ``ROLLED``."""
    env = service_env(args)

    def run() -> None:
        time.sleep(args.rolling_restart_at)
        generation = iter(range(1, 1000))

        def start_like(index: int):
            return start_worker(env, index // args.workers, index % args.workers,
                                next(generation))

        ROLLED.append(roll(web, workers, start_like, lambda w: ping_worker(celery_app, w)))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def start_locust(args, matches: int, hosts: list[str], tokens_file: Path,
                 prefix: Path) -> subprocess.Popen:
    env = {**os.environ, "LOAD_HOSTS": ",".join(hosts), "LOAD_TOKENS": str(tokens_file),
           "THINK_MIN_S": str(args.think[0]), "THINK_MAX_S": str(args.think[1]),
           "POLL_S": str(args.poll)}
    if args.socket:
        env.update(LOAD_MODE="socket", LOAD_RECORD=f"{prefix}_record.json",
                   LOAD_SOCKETS=f"{prefix}_sockets", LOAD_CHAT="1" if args.chat else "0")
    ramp = ["--reset-stats"] if args.ramp_s else []  # locust's figures: after the ramp
    return subprocess.Popen(
        [str(BIN / "locust"), "-f", str(ROOT / "bench" / "locustfile.py"), "--headless",
         "-u", str(matches), "-r", str(spawn_rate(args, matches)),
         "-t", f"{(args.ramp_s or 0) + args.minutes * 60:.0f}s", *ramp,
         "--host", hosts[0], "--csv", str(prefix), "--only-summary", "--stop-timeout", "15",
         "--loglevel", "WARNING"],
        cwd=ROOT, env=env)


def spawn_rate(args, matches: int) -> float:
    """Users started per second: ``--spawn-rate``, or with ``--ramp-s`` as many as spread
    the starts evenly over the ramp."""
    return matches / args.ramp_s if args.ramp_s else args.spawn_rate


def cpu_meter(args, web: list[subprocess.Popen], workers: list[subprocess.Popen],
              locust: subprocess.Popen) -> tuple[CpuMeter, list[str]]:
    """The parts to account for, each with how many cores it can use at most; and notes on
    the parts that could not be found on this machine."""
    parts = {"web": [p.pid for p in web], "workers": [p.pid for p in workers]}
    # uvicorn processes, and Celery worker processes whose threads share one GIL
    ceilings = {"web": len(web) * args.web_processes, "workers": len(workers)}
    notes = []
    postmaster = postgres_postmaster_pid(connection)
    if postmaster:
        parts["postgres"] = [postmaster]
    else:
        notes.append("PostgreSQL does not run on this machine: not counted")
    redis_urls = {settings.CELERY_BROKER_URL, settings.CACHES["default"]["LOCATION"],
                  *(host["address"] if isinstance(host, dict) else host
                    for host in settings.CHANNEL_LAYERS["default"]["CONFIG"]["hosts"])}
    if redis := redis_server_pids(sorted(redis_urls)):
        parts["redis"], ceilings["redis"] = redis, len(redis)  # one main thread each
    else:
        notes.append("Redis does not run on this machine: not counted")
    parts["locust"], ceilings["locust"] = [locust.pid], 1  # one process, one event loop
    return CpuMeter(parts, ceilings), notes


def locust_rows(stats_file: Path) -> dict[str, dict]:
    with open(stats_file) as handle:
        return {row["Name"]: row for row in csv.DictReader(handle)}


class Webhooks:
    """--webhooks: the receiver, and the app serving the load users with one endpoint
    taking ``your_turn`` (bench/webhook_receiver.py); the bench-only settings go into
    os.environ, which the service's processes are started with (service_env)."""

    def __init__(self, players: int) -> None:
        from django.test import override_settings

        from accounts.apps_oauth.models import App

        os.environ.update(BENCH_ENV)
        # an interrupted run's app would live on: its endpoint points at a receiver that
        # is gone, and its deliveries (one per turn of its users) wait for retries in the
        # workers this run measures
        left, _ = App.objects.filter(user__username=WEBHOOK_APP_OWNER).delete()
        if left:
            print(f"[load] webhooks: removed an earlier run's app ({left} rows)", flush=True)
        self.receiver = Receiver()
        users = User.objects.filter(username__in=[f"load-{n}" for n in range(players)])
        with override_settings(WEBHOOK_HTTP_URLS=True,  # this process's settings are read
                               WEBHOOK_ALLOWED_ADDRESSES=["127.0.0.1"]):
            self.app, self.endpoint = register_app(WEBHOOK_APP_OWNER, users, self.receiver.url,
                                                   ["your_turn"])
        self.receiver.secret = self.endpoint.secret
        print(f"[load] webhooks: app {self.app.pk}, endpoint {self.endpoint.pk} -> "
              f"{self.receiver.url} (your_turn) for {users.count()} users", flush=True)

    def drain(self) -> None:
        """Until no delivery came for WEBHOOK_QUIET_S (the last turns' deliveries)."""
        deadline = time.monotonic() + WEBHOOK_DRAIN_MAX_S
        count, quiet_since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now_count = len(self.receiver.arrivals)
            if now_count != count:
                count, quiet_since = now_count, time.monotonic()
            elif time.monotonic() - quiet_since >= WEBHOOK_QUIET_S:
                return
            time.sleep(0.5)

    def results(self, match_ids: list[int]) -> dict:
        """The deliveries of ``match_ids``' turns: received (verified), the bad
        signatures (all of the run), queued by status, and each verified one's latency
        from the commit of the move that made the turn (its log stamp; a turn at ply 0,
        made by the match's start, is counted but not timed)."""
        from games.webhooks.models import Delivery

        wanted = set(match_ids)
        with self.receiver.lock:
            arrivals = [(p, at) for p, at in self.receiver.arrivals
                        if p["data"]["match_id"] in wanted]
            bad = list(self.receiver.bad)
            receiver_cpu = self.receiver.cpu_seconds
        commits = {(match, ply + 1): at.timestamp() for match, ply, at in
                   Move.objects.filter(match_id__in=match_ids)
                   .values_list("match_id", "ply", "created_at")}
        latencies, unmatched, seen, doubled, starts = [], 0, set(), 0, 0
        for payload, at in arrivals:
            data = payload["data"]
            key = (data["match_id"], data["ply"])
            doubled += (key, data["user_id"]) in seen
            seen.add((key, data["user_id"]))
            if data["ply"] == 0:  # the match's start made the turn, not a move: not timed
                starts += 1
            elif key in commits:
                latencies.append((at - commits[key]) * 1000)
            else:
                unmatched += 1
        queued = dict(Delivery.objects.filter(endpoint=self.endpoint,
                                              payload__data__match_id__in=match_ids)
                      .order_by().values_list("status").annotate(n=models.Count("id")))
        return {"received": len(arrivals), "bad": bad, "latencies": latencies,
                "unmatched": unmatched, "doubled": doubled, "starts": starts,
                "queued": queued, "receiver_cpu_s": receiver_cpu}

    def stop(self) -> None:
        self.receiver.stop()
        try:
            from accounts.apps_oauth.models import App

            App.objects.filter(pk=self.app.pk).delete()  # its endpoint, deliveries, tokens
        except Exception as error:  # noqa: BLE001 - say so: its tokens would live on
            print(f"[load] webhooks: could not delete app {self.app.pk}: {error!r}")


def webhook_line(result: dict) -> str:
    hooks = result["webhooks"]
    latencies = hooks["latencies"]
    move = result["rows"].get("move ack", {})
    queued = hooks["queued"]
    line = (f"webhooks your_turn: received {hooks['received']} (the same turn twice: "
            f"{hooks['doubled']}), bad signatures {len(hooks['bad'])} {hooks['bad'][:3]}; "
            f"queued {sum(queued.values())} {dict(sorted(queued.items()))}; the receiver's "
            f"CPU (niced, not the service's) {hooks['receiver_cpu_s']:.1f} s")
    if latencies:
        line += (f"\nwebhook delivery from the move's commit (its log stamp): "
                 f"p50 {statistics.median(latencies):.0f} ms, p99 "
                 f"{percentile(latencies, 0.99):.0f} ms, max {max(latencies):.0f} ms "
                 f"(n={len(latencies)}; at a match's start, not timed: {hooks['starts']}; "
                 f"without a logged move: {hooks['unmatched']}); "
                 f"move ack p50 {move.get('50%', '-')} ms, p99 {move.get('99%', '-')} ms")
    return line


def run_size(args, matches: int, web, workers, hosts: list[str], tokens_file: Path,
             prefix: Path, webhooks: Webhooks | None = None) -> dict:
    """One size: locust for ``--minutes`` with CPU accounted over its run, then the race
    and the checks on the matches it made."""
    # the run covers every match the checks read; the figures count from the ramp's end
    run_started = figures_started = timezone.now()
    memory = socket_checks.Memory(web, prefix) if args.socket else None
    answered = socket_checks.answer_buckets(metric_directories(args)) if args.socket else {}
    locust = start_locust(args, matches, hosts, tokens_file, prefix)
    # with --ramp-s, every figure but the checks counts from the ramp's end
    measured_from = time.time() + (args.ramp_s or 0)
    rolling = rolling_restart_later(args, web, workers) \
        if args.rolling_restart_at is not None else None
    try:
        meter, notes = cpu_meter(args, web, workers, locust)
        if not args.ramp_s:
            meter.start()
        if memory:  # once every user holds its two sockets: the memory they cost
            memory.sample(locust, 2 * matches,
                          timeout=matches / spawn_rate(args, matches) + 60)
        if args.ramp_s:
            time.sleep(max(0.0, measured_from - time.time()))
            if args.socket:
                answered = socket_checks.answer_buckets(metric_directories(args))
            meter.start()
            figures_started = timezone.now()
        # wait for locust to end without reaping it, so its CPU can still be read
        os.waitid(os.P_PID, locust.pid, os.WEXITED | os.WNOWAIT)
        cpu = meter.stop()
    finally:
        if locust.poll() is None:
            locust.terminate()
        locust.wait()
    ended = timezone.now()
    if rolling is not None:
        rolling.join(timeout=600)
    race = race_check(hosts, json.loads(tokens_file.read_text()))
    if webhooks is not None:  # the race's match too is one of the run's
        webhooks.drain()
    match_ids = list(Match.objects.filter(created_by__username__startswith="load-",
                                          created_at__gte=run_started)
                     .values_list("pk", flat=True))
    rows = locust_rows(Path(f"{prefix}_stats.csv"))
    move_row = rows.get("move ack" if args.socket else "move", {})
    socket_part = socket_checks.results(prefix, match_ids, memory,
                                        since=measured_from) if memory else {}
    if memory:
        socket_part["server_answers"] = socket_checks.server_answers(
            answered, socket_checks.answer_buckets(metric_directories(args)))
    if webhooks is not None:
        socket_part["webhooks"] = webhooks.results(match_ids)
    return {
        **socket_part,
        "matches": matches, "seconds": (ended - figures_started).total_seconds(), "rows": rows,
        "window": (figures_started, ended),
        "moves": Move.objects.filter(match_id__in=match_ids, created_at__gte=figures_started,
                                     created_at__lte=ended).count(),
        "human_moves": int(move_row.get("Request Count", 0)) -
        int(move_row.get("Failure Count", 0)),
        "replies": bot_replies_ms(match_ids), "race": race, "checks": check_matches(match_ids),
        # every 201 the people got is a move of theirs (seat 0) in the log
        "human_moves_logged": Move.objects.filter(match_id__in=match_ids, seat=0,
                                                  created_at__lte=ended)
        .exclude(match_id=race["match"] if race else None).count(),
        "rolled": ROLLED[-1] if rolling is not None and ROLLED else None,
        "cpu": cpu, "cpu_notes": notes,
    }


def print_size(args, result: dict) -> None:
    rows, replies, race, checks = (result[key] for key in ("rows", "replies", "race", "checks"))
    print(f"\n== {result['matches']} concurrent matches, {args.instances} instance(s) x "
          f"({args.web_processes} web processes + {args.workers} worker x "
          f"{args.worker_threads} threads), {result['seconds']:.0f} s ==")
    if args.socket:
        socket_checks.print_socket_lines(result)
    if "webhooks" in result:
        print(webhook_line(result))
    for name in ("move", "poll match", "legal moves", "create match", "Aggregated"):
        row = rows.get(name)
        if row:
            print(f"{name:<13} n={row['Request Count']:>7} failures={row['Failure Count']:>5} "
                  f"p50={row['50%']:>5} p95={row['95%']:>5} p99={row['99%']:>5} ms")
    if replies:
        print(f"human move -> bot reply: p50 {statistics.median(replies):.0f} ms, "
              f"p99 {percentile(replies, 0.99):.0f} ms (n={len(replies)})")
    print(f"moves/s (people and bots): {result['moves'] / result['seconds']:.1f}  "
          f"({result['moves']} moves)")
    print(f"window (UTC): {result['window'][0].isoformat()} .. {result['window'][1].isoformat()}")
    failures = rows.get("Aggregated", {}).get("Failure Count", "?")
    print(f"errors: {failures}")
    # none lost when the log holds at least as many (a move in flight as locust stopped
    # may be logged yet not counted)
    print(f"human moves acknowledged (201): {result['human_moves']}, in the log: "
          f"{result['human_moves_logged']}"
          + (" (acknowledged: after the ramp; the log: the whole run)" if args.ramp_s else ""))
    if args.rolling_restart_at is not None:
        rolled = result["rolled"]
        print("rolling restart: " + (
            f"at {args.rolling_restart_at:.0f} s, {len(rolled['web'])} web tier(s) "
            f"(processes {[w['old'] for w in rolled['web']]} -> "
            f"{[w['new'] for w in rolled['web']]}) and {rolled['workers']} worker(s) "
            f"replaced in {rolled['seconds']:.1f} s" if rolled else "DID NOT COMPLETE"))
    if race:
        print(f"race: 20 concurrent submits at one ply over {args.instances} instance(s): "
              f"{race['landed']} landed, refused with {race['refused']}, log plies "
              f"{race['log']}")
    print(f"checks: {checks['matches']} matches, {checks['finished']} finished; logs with a "
          f"gap or duplicate: {len(checks['bad_logs'])} {checks['bad_logs'][:10]}; finished "
          f"matches not replaying to their result: {len(checks['bad_results'])} "
          f"{checks['bad_results'][:10]}")
    for line in result["cpu"].lines(result["human_moves"], "human move"):
        print(line)
    for note in result["cpu_notes"]:
        print(f"  ({note})")


def print_table(args, results: list[dict]) -> None:
    """One row per size: latencies in ms; CPU as shares of the machine (cores x wall).
    With ``--socket``: the move's ack, and the bot reply's push in place of the poll."""
    parts = list(results[0]["cpu"].seconds)
    print("\n== summary: latencies in ms; CPU in % of the machine (cores x wall) ==")
    print(f"{'matches':>7} {'move p50/p95/p99':>18} "
          f"{'push p99' if args.socket else 'poll p99':>8} {'bot p50/p99':>12} "
          f"{'moves/s':>7} {'errors':>6} {'bad log/result':>14} "
          + " ".join(f"{part[:8]:>8}" for part in [*parts, "other", "busy"]))
    for result in results:
        move = result["rows"].get("move ack" if args.socket else "move", {})
        poll = result["rows"].get("bot reply push" if args.socket else "poll match", {})
        replies, checks, cpu = result["replies"], result["checks"], result["cpu"]
        latency = f"{move.get('50%', '-')}/{move.get('95%', '-')}/{move.get('99%', '-')}"
        bot = (f"{statistics.median(replies):.0f}/{percentile(replies, 0.99):.0f}"
               if replies else "-")
        bad = f"{len(checks['bad_logs'])}/{len(checks['bad_results'])}"
        shares = [cpu.share(cpu.seconds[part]) for part in parts]
        shares += [cpu.share(cpu.other), cpu.share(cpu.machine_busy)]
        print(f"{result['matches']:>7} {latency:>18} {poll.get('99%', '-'):>8} {bot:>12} "
              f"{result['moves'] / result['seconds']:>7.1f} "
              f"{result['rows'].get('Aggregated', {}).get('Failure Count', '?'):>6} "
              f"{bad:>14} "
              + " ".join(f"{share:>8.0%}" for share in shares))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[200],
                        help="concurrent matches (users); several sizes run in turn")
    parser.add_argument("--minutes", type=float, default=10, help="per size")
    parser.add_argument("--instances", type=int, default=1, help="web+worker instances")
    parser.add_argument("--web-processes", type=int, default=os.cpu_count() or 1,
                        help="uvicorn processes per instance")
    parser.add_argument("--workers", type=int, default=1, help="Celery workers per instance")
    parser.add_argument("--worker-threads", type=int, default=4)
    parser.add_argument("--port", type=int, default=0,
                        help="the first instance's web port (the next ones follow); "
                        "0: a free port each")
    parser.add_argument("--spawn-rate", type=float, default=20)
    parser.add_argument("--ramp-s", type=float, default=None, metavar="R",
                        help="start the users evenly over R seconds, then run --minutes "
                        "more; the figures (not the checks) count from the ramp's end")
    parser.add_argument("--think", type=float, nargs=2, default=(5.0, 10.0))
    parser.add_argument("--poll", type=float, default=1.0)
    parser.add_argument("--rolling-restart-at", type=float, default=None, metavar="S",
                        help="S seconds into each size, replace every web process and "
                        "worker one by one (docs/operations.md \"Rolling restarts\")")
    parser.add_argument("--metrics-port", type=int, default=None,
                        help="serve every process's metrics on this port (0: a free one)")
    parser.add_argument("--metrics-linger", type=float, default=15,
                        help="seconds the service stays up after the run, for a last scrape")
    parser.add_argument("--socket", action="store_true",
                        help="people play over the play socket (a player's and a "
                        "spectator's socket per match) instead of polling REST")
    parser.add_argument("--chat", action="store_true",
                        help="with --socket: half the people chat (a message per 20 s) "
                        "beside their moves (bench/socket_chat.py)")
    parser.add_argument("--webhooks", action="store_true",
                        help="with --socket: every player's your_turn delivered as a "
                        "signed webhook to a local receiver (bench/webhook_receiver.py)")
    args = parser.parse_args()
    if args.chat and not args.socket:
        parser.error("--chat needs --socket")
    if args.webhooks and not args.socket:
        parser.error("--webhooks needs --socket")
    VAR.mkdir(parents=True, exist_ok=True)

    tokens_file = VAR / "tokens.json"
    tokens_file.write_text(json.dumps(make_tokens(max(args.matches))))
    # registered before the service starts: its processes find the endpoint at once
    webhooks = Webhooks(max(args.matches)) if args.webhooks else None
    try:
        web, workers, hosts = start_service(args)
    except BaseException:
        if webhooks is not None:
            webhooks.stop()
        raise
    results = []
    try:
        if args.socket:
            socket_checks.warm_up(hosts, json.loads(tokens_file.read_text())[0],
                                  args.web_processes, http)
        for number, matches in enumerate(args.matches):
            if number:
                time.sleep(SETTLE_S)
            prefix = VAR / ("locust" if len(args.matches) == 1 else f"locust-{matches}")
            results.append(run_size(args, matches, web, workers, hosts, tokens_file, prefix,
                                    webhooks))
            print_size(args, results[-1])
        if SIDECARS:
            print(f"[load] serving {args.metrics_linger:.0f} s more for a last scrape",
                  flush=True)
            time.sleep(args.metrics_linger)
    finally:
        stop_process_groups(web + workers + SIDECARS)
        if webhooks is not None:
            webhooks.stop()
    if len(results) > 1:
        print_table(args, results)


if __name__ == "__main__":
    main()
