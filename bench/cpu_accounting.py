"""CPU time of a benchmark's parts over a window, read from /proc (Linux only).

A part (the web tier, the workers, PostgreSQL, Redis, the load client) is one or more
process trees: a root and all its descendants. A tree's CPU is utime + stime of every
process in it, plus cutime + cstime (the CPU of children that ended and were reaped inside
the tree, such as a PostgreSQL backend whose session closed). Sampled at the start and at
the end of the window, the difference is the part's CPU seconds in the window, including
the CPU of processes born and gone in between. A process that has exited but is not yet
reaped (a zombie) still shows its times, so the load client can be sampled after it ends.

/proc/stat gives the whole machine's busy time over the same window. What the parts do
not account for is what other jobs on the machine used.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from bench.process_tree import child_map, stat_fields, tree

HZ = os.sysconf("SC_CLK_TCK")
#: busy share from which a part, or the machine, counts as saturated (queues grow)
SATURATED = 0.9


def _comm(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return ""


def tree_cpu_seconds(roots: list[int], children: dict[int, list[int]] | None = None) -> float:
    """CPU seconds used so far by the trees under ``roots`` (see the module doc)."""
    ticks = 0
    for pid in tree(roots, children):
        # [11:15]: utime stime cutime cstime, in clock ticks
        if stat := stat_fields(pid):
            ticks += sum(int(field) for field in stat[11:15])
    return ticks / HZ


def machine_ticks() -> tuple[int, int, int]:
    """(busy, total, cores) from /proc/stat: busy is everything but idle and iowait,
    niced work included."""
    with open("/proc/stat") as handle:
        lines = handle.read().splitlines()
    # user nice system idle iowait irq softirq steal (guest time is already in user)
    fields = [int(value) for value in lines[0].split()[1:9]]
    total = sum(fields)
    cores = sum(1 for line in lines if line.startswith("cpu") and line[3:4].isdigit())
    return total - fields[3] - fields[4], total, cores


def postgres_postmaster_pid(connection) -> int | None:
    """The postmaster of the cluster ``connection`` (a Django connection) talks to: the
    parent of its own backend. None when that cluster does not run on this machine."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    stat = stat_fields(backend)
    if stat is None or not _comm(backend).startswith("postgres"):
        return None
    postmaster = int(stat[1])
    return postmaster if _comm(postmaster) in ("postgres", "postmaster") else None


def redis_server_pids(urls: list[str]) -> list[int]:
    """The redis-server processes behind ``urls`` (each counted once), from INFO: those
    that run on this machine."""
    import redis  # the broker's client, installed with celery[redis]

    pids = set()
    for url in urls:
        pid = int(redis.Redis.from_url(url).info("server")["process_id"])
        if _comm(pid).startswith("redis"):
            pids.add(pid)
    return sorted(pids)


@dataclass
class CpuWindow:
    """What a CpuMeter measured. ``ceilings``: how many cores each part can use at most
    (a single process with a GIL or one event loop: 1)."""

    seconds: dict[str, float]
    ceilings: dict[str, float]
    wall: float
    cores: int
    machine_busy: float  # CPU seconds the whole machine was busy

    def share(self, seconds: float) -> float:
        """Of the machine's capacity over the window (cores x wall)."""
        return seconds / (self.cores * self.wall) if self.wall else 0.0

    def of_ceiling(self, part: str) -> float:
        return self.seconds[part] / (self.ceilings[part] * self.wall) if self.wall else 0.0

    @property
    def other(self) -> float:
        """Busy time the parts do not account for: other jobs on the machine."""
        return max(0.0, self.machine_busy - sum(self.seconds.values()))

    def lines(self, per: int, per_label: str) -> list[str]:
        """A table of the parts, then which is nearest to its ceiling."""
        out = [f"CPU over {self.wall:.0f} s on {self.cores} cores: machine busy "
               f"{self.share(self.machine_busy):.0%}",
               f"  {'part':<9} {'cpu s':>8} {'machine':>8} {'of ceiling':>16} "
               f"{'ms/' + per_label:>14}"]
        for part, seconds in self.seconds.items():
            ceiling = f"{self.of_ceiling(part):.0%} of {self.ceilings[part]:g}"
            per_item = f"{1000 * seconds / per:.1f}" if per else "-"
            out.append(f"  {part:<9} {seconds:>8.1f} {self.share(seconds):>8.0%} "
                       f"{ceiling:>16} {per_item:>14}")
        out.append(f"  {'other':<9} {self.other:>8.1f} {self.share(self.other):>8.0%} "
                   f"{'(other jobs)':>16}")
        if self.seconds:
            part = max(self.seconds, key=self.of_ceiling)
            busy = self.share(self.machine_busy)
            verdict = (f": {part} saturates first" if self.of_ceiling(part) >= SATURATED
                       else ": the machine's cores saturate first" if busy >= SATURATED
                       else "")
            out.append(f"nearest to its ceiling: {part} at {self.of_ceiling(part):.0%} of "
                       f"{self.ceilings[part]:g} core(s); machine busy {busy:.0%}, other jobs "
                       f"{self.share(self.other):.0%}{verdict}")
        return out


class CpuMeter:
    """``start()``, then ``stop()`` -> CpuWindow, for ``parts``: name -> process tree
    roots, and ``ceilings``: name -> cores it can use (at most, and by default, the
    machine's)."""

    def __init__(self, parts: dict[str, list[int]], ceilings: dict[str, float]):
        self.parts, self.ceilings = parts, ceilings

    def _sample(self) -> tuple[float, dict[str, float], tuple[int, int, int]]:
        children = child_map()
        return (time.monotonic(),
                {part: tree_cpu_seconds(roots, children) for part, roots in self.parts.items()},
                machine_ticks())

    def start(self) -> None:
        self._start = self._sample()

    def stop(self) -> CpuWindow:
        (began, before, (busy0, _, cores)), (ended, after, (busy1, _, _)) = \
            self._start, self._sample()
        return CpuWindow(
            seconds={part: max(0.0, after[part] - before[part]) for part in self.parts},
            ceilings={part: float(min(self.ceilings.get(part, cores), cores))
                      for part in self.parts},
            wall=ended - began, cores=cores, machine_busy=(busy1 - busy0) / HZ)
