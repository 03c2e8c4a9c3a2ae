"""Real Celery worker processes for tests (tests/games/matches/test_celery_worker.py, tests/fault/).

A worker reads the test database and consumes only the test queue on the test Redis db
(tests/games/support.py: isolate_test_celery), so it never sees a development worker's
tasks and a development worker never sees its. Its output goes to a file, not a pipe (a
full pipe would block it)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from django.conf import settings
from django.db import connection

from config.celery import app as celery_app
from tests.games.support import TEST_ANALYSIS_QUEUE, TEST_BOT_QUEUE, TEST_QUEUE

ROOT = Path(__file__).resolve().parents[1]


def runtime_database_url() -> str:
    """The test database, with the runtime role's credentials (what a deployed worker
    connects as; tests/settings.py), so the workers prove its privileges suffice."""
    db = connection.settings_dict
    runtime = getattr(settings, "RUNTIME_DATABASE", db)
    return (f"postgres://{runtime['USER']}:{runtime['PASSWORD']}@{db['HOST']}:{db['PORT']}/"
            f"{db['NAME']}")


def purge_test_queue() -> None:
    with celery_app.connection_for_write() as conn:
        for queue in (TEST_QUEUE, TEST_BOT_QUEUE, TEST_ANALYSIS_QUEUE):  # left by earlier tests
            conn.default_channel.queue_purge(queue)


def worker_environment(env: dict | None = None) -> dict:
    """What a test's Celery process (worker or beat) runs with: the test database as the
    runtime role, the test broker db and queues."""
    return {
        **os.environ,
        "DATABASE_URL": runtime_database_url(),
        "CELERY_BROKER_URL": celery_app.conf.broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": TEST_QUEUE,
        "CELERY_BOT_QUEUE": TEST_BOT_QUEUE,
        "CELERY_ANALYSIS_QUEUE": TEST_ANALYSIS_QUEUE,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "REDIS_URL": settings.REDIS_URL,
        "DATABASE_OWNER_URL": "",  # tests/settings.py: connect as DATABASE_URL's role
        **(env or {}),
    }


def start_beat(log_path: Path, schedule_path: Path, env: dict | None = None) -> subprocess.Popen:
    """Start ``celery beat`` sending the schedule (config/celery_settings.py) to the test
    queues; stop it with ``stop_worker``."""
    command = [sys.executable, "-m", "celery", "-A", "config", "beat", "-l", "warning",
               "--schedule", str(schedule_path)]
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=worker_environment(env), stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    process.log_path = log_path
    return process


def start_worker(log_path: Path, name: str, *, pool: str = "threads", concurrency: int = 2,
                 include: tuple[str, ...] = (), env: dict | None = None,
                 level: str = "warning", celery_options: tuple[str, ...] = (),
                 queues: tuple[str, ...] = (TEST_QUEUE, TEST_BOT_QUEUE)) -> subprocess.Popen:
    """Start ``celery worker`` on both test queues (scoring and bot turns, as in
    production; ``queues`` names others, e.g. the analysis queue for an analysis worker)
    in its own session, so its whole process group can be signalled. The
    production pool by default (threads, CELERY_WORKER_POOL), and no other option than
    scripts/run.sh and docker-compose.yml give: the configuration decides the rest."""
    command = [sys.executable, "-m", "celery", *celery_options, "-A", "config", "worker",
               "-Q", ",".join(queues),
               f"--pool={pool}", f"--concurrency={concurrency}",
               "-l", level, "-n", f"{name}-{os.getpid()}@%h"]
    for module in include:
        command += ["-I", module]
    full_env = worker_environment(env)
    with open(log_path, "ab") as log:
        process = subprocess.Popen(command, cwd=ROOT, env=full_env, stdout=log,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    process.log_path = log_path
    return process


def stop_worker(process: subprocess.Popen) -> None:
    """Warm shutdown (TERM), then KILL the whole group if it lingers; safe if already dead."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    kill_worker_group(process)


def kill_worker_group(process: subprocess.Popen) -> None:
    """kill -9 the worker and its pool processes, as a crashed host or the OOM killer would."""
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass


def worker_log(process: subprocess.Popen, tail: int = 4000) -> str:
    return Path(process.log_path).read_text(errors="replace")[-tail:]
