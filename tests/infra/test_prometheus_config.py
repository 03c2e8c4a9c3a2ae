"""The shipped Prometheus config works outside compose (issue 40: it found no target
there, silently). The real ``prometheus`` binary runs deploy/prometheus.yml as shipped,
with its alert rules, beside the real exporters it names (the service's own, Debian's
PostgreSQL, Redis and node exporters, on this test's free ports): its target files are
written as docs/operations.md "Metrics" says to point them elsewhere. Every job's target
is up, the archiver's, Redis's and the host's families are there, and the rules are
loaded."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import time
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.infra.observability_stack import _stack_env, running_exporter
from tests.ports import free_port

pytestmark = [pytest.mark.django_db, pytest.mark.slow]

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
BINARIES = ["prometheus", "prometheus-postgres-exporter", "prometheus-redis-exporter",
            "prometheus-node-exporter"]


def _binaries() -> dict[str, str]:
    found = {name: shutil.which(name) for name in BINARIES}
    missing = [name for name, path in found.items() if path is None]
    if missing:
        message = f"missing {missing} (Debian's packages: scripts/prometheus.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return found


@contextlib.contextmanager
def _running(command: list[str], log: Path, env: dict | None = None):
    with open(log, "ab") as out:
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                   env={**os.environ, **(env or {})},
                                   start_new_session=True)
    try:
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def _postgres_dsn() -> str:
    database = settings.DATABASES["default"]
    return (f"postgresql://{database['USER']}:{database['PASSWORD']}@{database['HOST']}:"
            f"{database['PORT']}/{database['NAME']}?sslmode=disable")


def test_the_shipped_config_scrapes_every_exporter_outside_compose(tmp_path):
    binaries = _binaries()
    ports = {job: free_port() for job in ("node", "postgres", "redis", "prometheus")}
    metrics_dir = tmp_path / "multiproc"
    metrics_dir.mkdir()
    config = tmp_path / "config"
    (config / "targets").mkdir(parents=True)
    shutil.copy(DEPLOY / "prometheus.yml", config / "prometheus.yml")
    shutil.copy(DEPLOY / "alerts.yml", config / "alerts.yml")
    redis_url = urllib.parse.urlsplit(settings.REDIS_URL)

    with contextlib.ExitStack() as stack:
        game_url = stack.enter_context(running_exporter(
            _stack_env(metrics_dir), tmp_path / "exporter.log"))
        targets = {"game": urllib.parse.urlsplit(game_url).netloc}
        stack.enter_context(_running(
            [binaries["prometheus-node-exporter"],
             f"--web.listen-address=127.0.0.1:{ports['node']}"], tmp_path / "node.log"))
        stack.enter_context(_running(
            [binaries["prometheus-postgres-exporter"],
             f"--web.listen-address=127.0.0.1:{ports['postgres']}"],
            tmp_path / "postgres.log", env={"DATA_SOURCE_NAME": _postgres_dsn()}))
        stack.enter_context(_running(
            [binaries["prometheus-redis-exporter"],
             f"--web.listen-address=127.0.0.1:{ports['redis']}",
             f"--redis.addr=redis://{redis_url.hostname}:{redis_url.port}"],
            tmp_path / "redis.log"))
        for job in ("node", "postgres", "redis"):
            targets[job] = f"127.0.0.1:{ports[job]}"
        # the shipped target files, pointed at this test's ports
        for job, target in targets.items():
            assert (DEPLOY / "targets" / f"{job}.yml").exists(), job
            (config / "targets" / f"{job}.yml").write_text(f'- targets: ["{target}"]\n')
        server = f"http://127.0.0.1:{ports['prometheus']}"
        stack.enter_context(_running(
            [binaries["prometheus"], f"--config.file={config / 'prometheus.yml'}",
             f"--storage.tsdb.path={tmp_path / 'data'}",
             f"--web.listen-address=127.0.0.1:{ports['prometheus']}"],
            tmp_path / "prometheus.log"))

        deadline = time.monotonic() + 90
        health: dict[str, str] = {}
        while time.monotonic() < deadline:
            try:
                active = _get(f"{server}/api/v1/targets")["data"]["activeTargets"]
            except OSError:
                active = []
            health = {target["labels"]["job"]: target["health"] for target in active}
            if health and set(health) == set(targets) and set(health.values()) == {"up"}:
                break
            time.sleep(1)
        logs = {path.name: path.read_text()[-1500:] for path in tmp_path.glob("*.log")}
        assert health == {job: "up" for job in targets}, (health, logs)

        def query(expression: str) -> list:
            encoded = urllib.parse.quote(expression)
            return _get(f"{server}/api/v1/query?query={encoded}")["data"]["result"]

        for expression in ("pg_stat_archiver_failed_count", "redis_up",
                           "node_filesystem_avail_bytes", "celery_queue_length"):
            assert query(expression), f"{expression}: no sample"
        rules = _get(f"{server}/api/v1/rules")["data"]["groups"]
        assert sum(len(group["rules"]) for group in rules) == 9
