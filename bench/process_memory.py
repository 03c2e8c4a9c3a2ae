"""Where a process tree's memory goes: each process's PSS, its private and shared pages
(from /proc/<pid>/smaps_rollup), and what it is (issue 45; docs/capacity.md "Memory").

    python bench/process_memory.py PID [PID ...]        # once, each tree
    python bench/process_memory.py --every 5 PID  # sample until the first tree ends;
                                                  # print the last full sample

PSS divides each shared page among the processes that map it, so the PSS of a tree adds
up to the memory the tree costs the machine. With ``--postgres PORT`` the PostgreSQL
cluster listening on PORT is added, its client backends counted apart.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script too
from bench.process_tree import tree  # noqa: E402

FIELDS = ("Rss", "Pss", "Private_Dirty", "Private_Clean", "Shared_Dirty", "Shared_Clean")


def rollup(pid: int) -> dict[str, float] | None:
    """The process's memory in MB, by smaps_rollup's field; None once it has gone."""
    try:
        lines = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
    except OSError:
        return None
    found = {}
    for line in lines:
        name, _, rest = line.partition(":")
        if name in FIELDS:
            found[name] = int(rest.split()[0]) / 1024
    return found


def what(pid: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return "?"
    for marker, name in (("resource_tracker", "resource tracker"),
                         ("multiprocessing.forkserver", "forkserver or its web process"),
                         ("preforked_uvicorn", "web supervisor"), ("spawn_main", "web process"),
                         ("uvicorn", "web supervisor"), ("celery", "celery"),
                         ("postgres:", "postgres"), ("redis-server", "redis")):
        if marker in command:
            return f"{name}: {command[:70]}" if name == "postgres" else name
    return command[:60]


def postmaster(port: int) -> int | None:
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if command and command[0].endswith(b"postgres") and str(port).encode() in command:
            return int(entry.name)
    return None


def sample(roots: list[int]) -> list[tuple[int, int, str, dict]]:
    rows = []
    for root in roots:
        for pid in tree([root]):
            memory = rollup(pid)
            if memory:
                rows.append((root, pid, what(pid), memory))
    return rows


def report(rows) -> None:
    print(f"{'root':>7} {'pid':>7} {'PSS':>7} {'priv':>7} {'shared':>7}  what (MB)")
    totals: dict[int, float] = {}
    backends = [0, 0.0]
    for root, pid, name, memory in rows:
        private = memory.get("Private_Dirty", 0) + memory.get("Private_Clean", 0)
        shared = memory.get("Shared_Dirty", 0) + memory.get("Shared_Clean", 0)
        totals[root] = totals.get(root, 0) + memory.get("Pss", 0)
        if "postgres:" in name and "game" in name:
            backends[0] += 1
            backends[1] += memory.get("Pss", 0)
        print(f"{root:>7} {pid:>7} {memory.get('Pss', 0):7.1f} {private:7.1f} {shared:7.1f}"
              f"  {name}")
    for root, total in totals.items():
        print(f"tree {root}: PSS {total:.1f} MB")
    if backends[0]:
        print(f"PostgreSQL client backends of the game database: {backends[0]}, "
              f"PSS {backends[1]:.1f} MB, {backends[1] / backends[0]:.1f} MB each")
    print(f"all: PSS {sum(totals.values()):.1f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("pids", type=int, nargs="*")
    parser.add_argument("--postgres", type=int, help="also the cluster on this port")
    parser.add_argument("--every", type=float, help="sample every N seconds until the "
                        "first tree ends, then print the last sample")
    args = parser.parse_args()
    roots = list(args.pids)
    if args.postgres and (found := postmaster(args.postgres)):
        roots.append(found)
    if not args.every:
        report(sample(roots))
        return
    # the last sample with every process still there (a tree being stopped loses some)
    last = sample(roots)
    while roots and os.path.exists(f"/proc/{roots[0]}"):
        rows = sample(roots)
        if len(rows) >= len(last):
            last = rows
        time.sleep(args.every)
    report(last)


if __name__ == "__main__":
    main()
