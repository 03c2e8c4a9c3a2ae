"""Bot turns per second through real Celery workers, with and without the connection pool.

    .venv/bin/python bench/bot_throughput.py [--seconds 30] [--matches 40] [--workers 1 2]

For each set-up and each number of worker processes it starts that many Celery workers,
starts ``--matches`` two-bot Han matches (greedy against greedy, every seat a bot), and
counts the moves the workers land in ``--seconds``, and the workers' CPU time per move
(their process trees: bench/cpu_accounting.py). Set-ups:

- ``before``: how workers ran before issue 14: prefork, one child per worker process, no
  pool (a new PostgreSQL session for every task);
- ``after``: the thread pool (CELERY_WORKER_CONCURRENCY threads) sharing one psycopg
  connection pool per worker process.

The set-ups alternate in one run, so they share the machine's load: compare them with
each other, not with another day's figures. Uses its own queues (bench_games, bench_bots)
on the development database and broker, and deletes what it creates.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from bench_env import prepare  # noqa: E402 - bench/ is the script folder
from process_groups import stop_process_groups  # noqa: E402

QUEUES = {"CELERY_TASK_DEFAULT_QUEUE": "bench_games", "CELERY_BOT_QUEUE": "bench_bots"}
os.environ.update(QUEUES)
# the owner role: the bench deletes its matches, which the runtime role may not (the
# workers it starts inherit this environment)
prepare()

import django  # noqa: E402
from cpu_accounting import tree_cpu_seconds  # noqa: E402

django.setup()

from django.db import connection  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from games.matches import services as match_services  # noqa: E402
from games.matches.models import Match, Move  # noqa: E402

SETUPS = {
    "before": {"DB_POOL": "false", "CELERY_WORKER_POOL": "prefork",
               "CELERY_WORKER_CONCURRENCY": "1"},
    "after": {"DB_POOL": "true", "CELERY_WORKER_POOL": "threads"},
}


def pg_sessions() -> int:
    """Sessions PostgreSQL has opened so far (its own counter, all databases)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT sum(sessions) FROM pg_stat_database")
        return int(cursor.fetchone()[0] or 0)


def start_workers(count: int, setup: dict, logs: Path) -> list[subprocess.Popen]:
    workers = []
    for index in range(count):
        env = {**os.environ, **QUEUES, **setup, "LOG_LEVEL": "WARNING"}
        log = open(logs / f"worker-{index}.log", "wb")
        workers.append(subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "-l", "warning",
             "-Q", ",".join(QUEUES.values()), "--without-gossip", "--without-mingle",
             "-n", f"bench-{os.getpid()}-{index}@%h"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        ))
    return workers


def wait_ready(count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        replies = celery_app.control.ping(timeout=1.0) or []
        mine = [r for r in replies if any(f"bench-{os.getpid()}-" in name for name in r)]
        if len(mine) >= count:
            return
    raise SystemExit("the workers did not answer in time")


def measure(setup_name: str, processes: int, args, logs: Path) -> tuple[float, int, float]:
    workers = start_workers(processes, SETUPS[setup_name], logs)
    created = []
    try:
        wait_ready(processes)
        sessions_before = pg_sessions()
        cpu_before = tree_cpu_seconds([worker.pid for worker in workers])
        started = time.monotonic()
        for _ in range(args.matches):
            match = match_services.create_match(user=None, game="han", players=2, take_seat=False,
                                                bot_seats={0: "greedy", 1: "greedy"})
            created.append(match.pk)
        time.sleep(max(0.0, args.seconds - (time.monotonic() - started)))
        elapsed = time.monotonic() - started
        cpu = tree_cpu_seconds([worker.pid for worker in workers]) - cpu_before
        moves = Move.objects.filter(match_id__in=created).count()
        sessions = pg_sessions() - sessions_before
    finally:
        stop_process_groups(workers, timeout=20)
        with celery_app.connection_for_write() as conn:
            for queue in QUEUES.values():
                conn.default_channel.queue_purge(queue)
        Match.objects.filter(pk__in=created).delete()
    return moves / elapsed, sessions, 1000 * cpu / max(moves, 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--setups", nargs="+", choices=list(SETUPS), default=list(SETUPS))
    args = parser.parse_args()
    logs = ROOT / ".var" / "bench-bots"
    logs.mkdir(parents=True, exist_ok=True)
    print(f"{args.matches} greedy-vs-greedy Han matches, {args.seconds:.0f} s per measure")
    print(f"{'set-up':<8} {'worker processes':>16} {'bot moves/s':>12} {'new PG sessions':>16} "
          f"{'worker CPU ms/move':>19}")
    for processes in args.workers:
        for setup_name in args.setups:
            rate, sessions, cpu_per_move = measure(setup_name, processes, args, logs)
            print(f"{setup_name:<8} {processes:>16} {rate:>12.1f} {sessions:>16} "
                  f"{cpu_per_move:>19.2f}", flush=True)


if __name__ == "__main__":
    main()
