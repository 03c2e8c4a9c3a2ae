"""The metrics directory does not grow with every process that ever ran (issue 40;
infra/observability/dead_processes.py, docs/operations.md "Metrics").

Real processes write real prometheus-client files into a PROMETHEUS_MULTIPROC_DIR and
exit; the exporter's registry (infra/observability/exporter.py) scrapes it. The files of
exited processes go (their counts into one archive per type, their gauges dropped) while
every total stays what the processes counted, scrape after scrape. And compose's worker
health check, run as compose runs it, leaves no file at all."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml
from django.conf import settings
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from infra.observability.exporter import registry
from tests.workers import ROOT

#: a process that moves ``count`` times in Han, opens a play socket, then lives on if asked
COUNTING = """
import sys, time
from infra.observability import metrics
for _ in range(int(sys.argv[1])):
    metrics.move_committed("han", by_bot=False)
metrics.socket_opened(metrics.PLAY)
print("counted", flush=True)
if sys.argv[2] == "stay":
    time.sleep(600)
"""


def _process(directory: Path, count: int, stay: bool = False) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", COUNTING, str(count), "stay" if stay else "exit"],
        cwd=ROOT, env={**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory),
                       "PYTHONPATH": str(ROOT)},
        stdout=subprocess.PIPE, text=True)


def _scrape(directory: Path) -> dict[str, float]:
    text = generate_latest(registry(str(directory), settings.CELERY_BROKER_URL, [])).decode()
    return {f"{sample.name}{sorted(sample.labels.items())}": sample.value
            for family in text_string_to_metric_families(text) for sample in family.samples}


def _moves(scrape: dict[str, float]) -> float:
    return scrape["game_moves_committed_total[('game', 'han'), ('mover', 'player')]"]


def _open_sockets(scrape: dict[str, float]) -> float:
    return scrape.get("websocket_connections_open[('socket', 'play')]", 0.0)


def _per_process_files(directory: Path) -> set[str]:
    return {path.name for path in directory.glob("*.db") if re.search(r"_\d+\.db$", path.name)}


def test_exited_processes_leave_their_counts_and_no_files(tmp_path):
    directory = tmp_path / "prometheus"
    directory.mkdir()
    for _ in range(5):
        assert _process(directory, 3).wait(timeout=60) == 0
    assert len(_per_process_files(directory)) >= 5  # what they left

    first = _scrape(directory)
    assert _moves(first) == 15
    assert _open_sockets(first) == 0  # their sockets closed with them
    assert _per_process_files(directory) == set(), "the exited processes' files remain"
    assert (directory / "counter_archive.db").exists()

    staying = _process(directory, 2, stay=True)
    try:
        assert staying.stdout.readline().strip() == "counted"
        alive = _scrape(directory)
        assert _moves(alive) == 17 and _open_sockets(alive) == 1
        assert any(name.endswith(f"_{staying.pid}.db") for name in _per_process_files(directory))
        # its CPU and memory, read from /proc by the exporter (a process of kind "other":
        # not uvicorn, not Celery)
        labels = f"[('kind', 'other'), ('pid', '{staying.pid}')]"
        assert alive[f"game_process_resident_memory_bytes{labels}"] > 1_000_000
        assert alive[f"game_process_cpu_seconds_total{labels}"] > 0
    finally:
        staying.send_signal(signal.SIGKILL)
        staying.wait(timeout=10)
    for _ in range(3):  # never backwards, never counted twice
        after = _scrape(directory)
        assert _moves(after) == 17 and _open_sockets(after) == 0
        assert not [name for name in after if name.startswith("game_process_")]
    assert _per_process_files(directory) == set()


def test_the_workers_health_check_as_compose_runs_it_writes_no_metric_file(tmp_path):
    """Twice a minute for ever: it used to leave a counter and a gauge file each time."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    directory = tmp_path / "prometheus"
    directory.mkdir()
    for service in ("worker", "analyst"):
        kind, command = compose["services"][service]["healthcheck"]["test"]
        assert kind == "CMD-SHELL"
        # the suite's settings (compose's need its secrets), compose's command line
        env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory),
               "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
               "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}",
               "HOSTNAME": "nobody-here"}
        started = time.monotonic()
        # compose writes $$ for a literal $; nothing answers the ping here (exit 1), but
        # the command has loaded the service as it would in the container
        finished = subprocess.run(["sh", "-c", command.replace("$$", "$")], cwd=ROOT,
                                  env=env, capture_output=True, text=True, timeout=60)
        assert "No nodes replied" in finished.stdout + finished.stderr, finished
        assert time.monotonic() - started < 60
    assert sorted(path.name for path in directory.iterdir()) == []


@pytest.fixture(autouse=True)
def _no_database():
    """These tests touch no database."""
