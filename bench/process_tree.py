"""The processes under a process, read from /proc: the one way the benches walk a server's
tree (CPU accounting, memory, the socket checks, the rolling restart). A scan of every
``/proc/PID/stat`` for its parent, not ``/proc/PID/task/*/children`` (a kernel option,
and it misses children of a thread that has exited)."""

from __future__ import annotations

import os
from pathlib import Path


def stat_fields(pid: int) -> list[str] | None:
    """``/proc/PID/stat`` after the command name (which may hold spaces and parentheses):
    field 0 is the state, 1 the parent; None once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None


def child_map() -> dict[int, list[int]]:
    """Every process's children, by parent pid, at this moment."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (fields := stat_fields(int(entry))):
            children.setdefault(int(fields[1]), []).append(int(entry))
    return children


def tree(roots: list[int], children: dict[int, list[int]] | None = None) -> list[int]:
    """``roots`` and every process under them, each once, parents first; ``children``
    from one ``child_map`` when several trees are walked at one moment."""
    children = child_map() if children is None else children
    found: list[int] = []
    seen: set[int] = set()
    todo = list(roots)
    while todo:
        pid = todo.pop(0)
        if pid in seen:
            continue
        seen.add(pid)
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def command_line(pid: int) -> bytes:
    """The process's arguments joined by NUL, or b"" once it is gone."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""
