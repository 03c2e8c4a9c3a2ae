"""CPU and memory of the processes that write into PROMETHEUS_MULTIPROC_DIR, served by the
exporter (issue 40). prometheus-client's process collector reads only the process it runs
in, and in multiprocess mode the exporter is another process: so the exporter reads
``/proc/<pid>`` of each live process that has files in the directory (every uvicorn
process and Celery worker of this host), at scrape time:

- ``game_process_cpu_seconds_total{pid, kind}``: user and system CPU time (a counter per
  process: ``sum by (kind) (rate(...))`` is the CPU a kind uses; a process that exits
  takes its series with it, as a restarted target's would);
- ``game_process_resident_memory_bytes{pid, kind}``.

``kind`` is ``web`` (uvicorn), ``worker`` (Celery) or ``other``, from the command line.
Linux only (``/proc``); elsewhere nothing is served."""

from __future__ import annotations

import os
import re

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

_PID_IN_NAME = re.compile(r"_(\d+)\.db$")
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def _kind(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as found:
            command = found.read()
    except OSError:
        return "other"
    # uvicorn's processes: spawned, or forked by a forkserver (infra/preforked_uvicorn.py)
    if b"uvicorn" in command or b"spawn_main" in command or \
            b"multiprocessing.forkserver" in command:
        return "web"
    if b"celery" in command:
        return "worker"
    return "other"


def _usage(pid: int) -> tuple[float, int] | None:
    """(CPU seconds, resident bytes) of a running process, None if it has gone."""
    try:
        with open(f"/proc/{pid}/stat") as found:
            stat = found.read()
        with open(f"/proc/{pid}/statm") as found:
            resident_pages = int(found.read().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    # the fields after the command's closing parenthesis: utime and stime are 14th, 15th
    fields = stat[stat.rindex(")") + 2:].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS, resident_pages * _PAGE


class ProcessCollector:
    def __init__(self, directory: str) -> None:
        self.directory = directory

    def writers(self) -> set[int]:
        pids = set()
        for name in os.listdir(self.directory):
            found = _PID_IN_NAME.search(name)
            if found:
                pids.add(int(found.group(1)))
        return pids

    def collect(self):
        cpu = CounterMetricFamily(
            "game_process_cpu_seconds", "CPU time (user and system) of a web or worker "
            "process of this host.", labels=["pid", "kind"])
        memory = GaugeMetricFamily(
            "game_process_resident_memory_bytes",
            "Resident memory of a web or worker process of this host.", labels=["pid", "kind"])
        for pid in sorted(self.writers()):
            usage = _usage(pid)
            if usage is None:
                continue
            labels = [str(pid), _kind(pid)]
            cpu.add_metric(labels, usage[0])
            memory.add_metric(labels, usage[1])
        yield cpu
        yield memory
