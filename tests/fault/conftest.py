"""Fault tests (marker ``fault``): this checkout's own PostgreSQL and Redis are stopped and
restarted (scripts/services.sh) while a real Celery worker plays bot-only matches.

The ``services`` fixture refuses (skips) unless the test settings point at the services
this checkout runs, so it never stops anybody else's; whatever happens in the test, it
starts both again before the next test runs. `make test` gives the suite services of its
own (SERVICES_DIR=.var/test, TEST_PG_PORT, TEST_REDIS_PORT: the Makefile); run by hand
against the development ones (.var/) while `make run` uses them, the fixture refuses
rather than stop them under it (issue 39). Recovery times are printed (``-s``) as
``[recovery] ...`` lines; bench/fault_recovery.sh collects them."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path
from urllib.parse import urlparse

import pytest
from django.conf import settings
from django.db import connection

from games.matches.models import Match, Move, Result
from games.matches.replay import replay_state
from rules import get_engine
from tests.workers import worker_log

ROOT = Path(__file__).resolve().parents[2]
SERVICES = ROOT / "scripts" / "services.sh"


def services_dir() -> Path:
    """Where scripts/services.sh keeps the services the suite runs against."""
    return Path(os.environ.get("SERVICES_DIR") or ROOT / ".var")


def make_run_pids() -> list[int]:
    """This checkout's scripts/run.sh processes (`make run`), if any run."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
            cwd = Path(os.readlink(entry / "cwd"))
        except OSError:
            continue
        if any(part.endswith(b"scripts/run.sh") for part in command[:2]) and cwd == ROOT:
            found.append(int(entry.name))
    return found


def pytest_collection_modifyitems(items):
    for item in items:
        if Path(str(item.fspath)).is_relative_to(Path(__file__).parent):
            item.add_marker(pytest.mark.fault)
            item.add_marker(pytest.mark.slow)


class Services:
    def __init__(self) -> None:
        self.redis_port = urlparse(settings.REDIS_URL).port
        self.pg_port = int(settings.DATABASES["default"]["PORT"] or 5432)

    def _run(self, command: str, service: str) -> None:
        env = {**os.environ, "PG_PORT": str(self.pg_port), "REDIS_PORT": str(self.redis_port)}
        subprocess.run([str(SERVICES), command, service], env=env, check=True,
                       capture_output=True, timeout=120)

    def ours(self) -> str | None:
        """Why these are not this checkout's services (None when they are)."""
        var = services_dir()
        if var.resolve() == (ROOT / ".var").resolve() and make_run_pids():
            return (f"`make run` (scripts/run.sh, pid {make_run_pids()[0]}) uses this "
                    "checkout's services in .var/: use `make test`, whose services are its "
                    "own (.var/test), or stop `make run` first")
        redis_pid = var / "run" / "redis.pid"
        try:
            cmdline = Path(f"/proc/{redis_pid.read_text().strip()}/cmdline").read_bytes()
        except (OSError, ValueError):
            return "this checkout's Redis is not running"
        if f":{self.redis_port}".encode() not in cmdline:
            return f"REDIS_URL port {self.redis_port} is not this checkout's Redis"
        try:
            pg_lines = (var / "pg" / "data" / "postmaster.pid").read_text().split()
        except OSError:
            return "this checkout's PostgreSQL is not running"
        if str(self.pg_port) not in pg_lines[:4]:
            return f"database port {self.pg_port} is not this checkout's PostgreSQL"
        return None

    def stop_redis(self) -> None:
        self._run("stop", "redis")

    def start_redis(self) -> None:
        self._run("start", "redis")

    def stop_pg(self) -> None:
        self._run("stop", "pg")

    def start_pg(self) -> None:
        self._run("start", "pg")


@pytest.fixture
def services():
    control = Services()
    reason = control.ours()
    if reason:
        pytest.skip(f"fault tests restart this checkout's services only: {reason}")
    try:
        yield control
    finally:
        control.start_pg()
        control.start_redis()
        reconnect()


def reconnect() -> None:
    """Drop this process's database connections (and pool): they may predate a restart."""
    connection.close()
    if hasattr(connection, "close_pool"):
        connection.close_pool()


def report(name: str, seconds: float) -> None:
    print(f"\n[recovery] {name}: {seconds:.1f} s")


def wait_for(predicate, timeout: float, what: str, worker=None) -> float:
    """Poll ``predicate`` until true; returns the seconds it took. Fails after ``timeout``
    (with the worker's log), or as soon as ``worker`` has died."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if predicate():
            return time.monotonic() - start
        if worker is not None and worker.poll() is not None:
            raise AssertionError(f"the worker died waiting for {what}:\n" + worker_log(worker))
        time.sleep(0.2)
    tail = ("\n" + worker_log(worker)) if worker is not None else ""
    raise AssertionError(f"no {what} within {timeout:.0f} s" + tail)


def progress(match_id: int) -> tuple[str, int]:
    status, ply = Match.objects.filter(pk=match_id).values_list("status", "ply").get()
    return status, ply


def assert_log_intact(match_id: int) -> None:
    """Nothing lost or doubled: plies 0..n-1 once each, the log replays to the stored
    snapshot, and the stored results are the replayed game's."""
    match = Match.objects.get(pk=match_id)
    assert match.status == "finished"
    plies = list(Move.objects.filter(match=match).order_by("ply").values_list("ply", flat=True))
    assert plies == list(range(match.ply)), "a gap or a duplicate in the move log"
    engine = get_engine(match.game)
    replayed = replay_state(match)
    assert engine.to_json(replayed) == match.state
    expected = engine.result(replayed)
    stored = {r.seat: (r.score, r.rank) for r in Result.objects.filter(match=match)}
    assert stored == {
        seat: (int(expected["scores"][seat]), int(expected["ranks"][seat]))
        for seat in range(match.players)
    }
