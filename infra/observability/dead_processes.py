"""What processes that have exited left in PROMETHEUS_MULTIPROC_DIR, folded away at each
scrape (issue 40: every short-lived process - a health check, a management command, a
restarted worker - left its files for ever; at ten days' worth a scrape took 400 ms and
300 MB, and it would have passed Prometheus's timeout within a year).

prometheus-client's multiprocess mode gives each process its own files
(``counter_<pid>.db``, ``histogram_<pid>.db``, ``gauge_<mode>_<pid>.db``). Of a process
that no longer runs:

- its counters, histograms and summaries are added into one archive file per type
  (``counter_archive.db`` ...), which the library's collector reads like any process's
  file (it takes the type from the name's first part), so a total never goes backwards;
- its gauges are removed (``mark_process_dead`` for the ``live*`` ones): an open-socket
  count or a pool size must not outlive its process.

The new archive is written beside the old one and renamed over it before the dead files
are removed: a crash between the two counts those files twice (a total that jumps up, as
a restart would not), never loses them. A lock file keeps two exporters on one directory
from folding at once. All processes sharing the directory must be on this host (their
ids are checked here)."""

from __future__ import annotations

import fcntl
import os
import re
from collections import defaultdict

from prometheus_client import multiprocess
from prometheus_client.mmap_dict import MmapedDict

ARCHIVE = "archive"
_PER_PROCESS = re.compile(r"^(counter|histogram|summary|gauge_[a-z]+)_(\d+)\.db$")
LOCK_NAME = ".fold.lock"


def running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # alive, another user's
        return True
    return True


def dead_files(directory: str) -> dict[str, list[str]]:
    """The files of processes that have exited, by type (``counter``, ``gauge_livesum``
    ...), paths in the directory."""
    found: dict[str, list[str]] = defaultdict(list)
    alive: dict[int, bool] = {}
    for name in os.listdir(directory):
        match = _PER_PROCESS.match(name)
        if match is None:
            continue
        pid = int(match.group(2))
        if pid not in alive:
            alive[pid] = running(pid)
        if not alive[pid]:
            found[match.group(1)].append(os.path.join(directory, name))
    return found


def _archive(directory: str, kind: str, paths: list[str]) -> None:
    archive = os.path.join(directory, f"{kind}_{ARCHIVE}.db")
    totals: dict[str, float] = defaultdict(float)
    for path in ([archive] if os.path.exists(archive) else []) + paths:
        for key, value, _timestamp, _pos in MmapedDict.read_all_values_from_file(path):
            totals[key] += value
    staged = archive + ".new"  # not *.db: the collector never reads a half-written one
    if os.path.exists(staged):
        os.unlink(staged)
    merged = MmapedDict(staged)
    try:
        for key, value in totals.items():
            merged.write_value(key, value, 0.0)
    finally:
        merged.close()
    os.replace(staged, archive)
    for path in paths:
        os.unlink(path)


def fold_dead_processes(directory: str) -> int:
    """Fold the files of exited processes (module doc); how many files went."""
    with open(os.path.join(directory, LOCK_NAME), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        folded = 0
        for kind, paths in dead_files(directory).items():
            if kind.startswith("gauge_"):
                for path in paths:
                    pid = int(_PER_PROCESS.match(os.path.basename(path)).group(2))
                    if kind.startswith("gauge_live"):
                        multiprocess.mark_process_dead(pid, directory)
                    elif os.path.exists(path):
                        os.unlink(path)
            else:
                _archive(directory, kind, paths)
            folded += len(paths)
        return folded
