"""A scrape of a metrics directory that N exited processes wrote into, before and after the
exporter folds their files away (issue 40; infra/observability/dead_processes.py,
docs/operations.md "Metrics").

One real process counts a little of everything (moves, refusals, throttles, a histogram,
an open socket) into a PROMETHEUS_MULTIPROC_DIR; its files are copied N times under
process ids above the kernel's pid_max (so no process runs under them), as N short-lived
processes would have left them: compose's health check added two files a minute. Then, in
fresh processes (so their peak memory is the scrape's):

- ``plain``: prometheus-client's collector alone, as the exporter was (three scrapes);
- ``folding``: the exporter's registry: its first scrape folds the dead files into the
  archive, the next ones read what is left.

Prints each scrape's time, the process's peak memory, the files before and after, and
the totals (equal: nothing lost). Run under nice on a shared machine:

    nice .venv/bin/python bench/metrics_directory.py --dead 28800
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

ONE_PROCESS = """
from infra.observability import metrics
for game in ("han", "hansa"):
    for mover in (False, True):
        metrics.move_committed(game, by_bot=mover)
for code in ("stale_ply", "not_your_turn", "illegal_move"):
    metrics.move_refused(code, by_bot=False)
for scope in ("auth", "move", "anon_read", "user_read"):
    metrics.throttled(scope)
metrics.play_move_answered(0.004, acknowledged=True)
metrics.TASK_RUN_SECONDS.labels("games", "games.tasks.play_bot_turn", "success").observe(0.2)
metrics.socket_opened(metrics.PLAY)
"""


def _pid_max() -> int:
    return int(Path("/proc/sys/kernel/pid_max").read_text())


def build(directory: Path, dead: int) -> None:
    env = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(directory), "PYTHONPATH": str(ROOT)}
    subprocess.run([sys.executable, "-c", ONE_PROCESS], cwd=ROOT, env=env, check=True)
    template = list(directory.glob("*.db"))
    first = _pid_max() + 1
    for path in template:
        data = path.read_bytes()
        used = struct.unpack_from("i", data)[0]  # the mmap file's first 4 bytes: bytes used
        kind = path.name.rsplit("_", 1)[0]
        for index in range(dead):
            # sparse, as the process's own file: its used bytes, then a hole to its size
            with open(directory / f"{kind}_{first + index}.db", "wb") as copy:
                copy.write(data[:used])
                copy.truncate(len(data))
        path.unlink()


def measure(mode: str, directory: str) -> None:
    """In its own process: three scrapes, their times, the peak memory, the totals."""
    from prometheus_client import CollectorRegistry, generate_latest, multiprocess
    from prometheus_client.parser import text_string_to_metric_families

    if mode == "plain":
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry, path=directory)
    else:
        from infra.observability.exporter import registry as exporter_registry

        registry = exporter_registry(directory, os.environ.get(
            "REDIS_URL", "redis://127.0.0.1:6379/0"), [])
    files_before = len(os.listdir(directory))
    times, text = [], ""
    for _ in range(3):
        started = time.perf_counter()
        text = generate_latest(registry).decode()
        times.append((time.perf_counter() - started) * 1000)
    moves = sum(sample.value for family in text_string_to_metric_families(text)
                for sample in family.samples if sample.name == "game_moves_committed_total")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"  {mode:8s} files {files_before:6d} -> {len(os.listdir(directory)):6d}; "
          f"scrapes {', '.join(f'{ms:.0f}' for ms in times)} ms; peak memory "
          f"{peak_mb:.0f} MB; moves counted {moves:.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dead", type=int, default=2880,
                        help="exited processes (default 2880: a day of compose's health "
                             "check, two a minute; 28800: ten days)")
    parser.add_argument("--measure", nargs=2, metavar=("MODE", "DIR"), help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.measure:
        measure(*options.measure)
        return
    with tempfile.TemporaryDirectory(prefix="metrics-directory-") as scratch:
        for mode in ("plain", "folding"):
            directory = Path(scratch) / mode
            directory.mkdir()
            started = time.perf_counter()
            build(directory, options.dead)
            print(f"{options.dead} exited processes' files written in "
                  f"{time.perf_counter() - started:.1f} s ("
                  f"{sum(p.stat().st_blocks for p in directory.iterdir()) * 512 / 1e6:.0f} MB"
                  " on disk)")
            subprocess.run([sys.executable, __file__, "--measure", mode, str(directory)],
                           cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
                           check=True)
            shutil.rmtree(directory)


if __name__ == "__main__":
    main()
