"""Ports a test's own servers listen on, and proof that an answer came from them.

A test never binds a fixed port: ``free_port()`` asks the kernel for one. Between that
probe closing and the server binding it another program may take the port, and any server
of this project answers ``/api/v1/health`` with 200 alike: the restore drill once waited
on a fixed port that another checkout's server held, its health wait passed against that
server, and the drill failed later with ``match_not_found`` (issue 39). So a wait for a
server we started also checks that every listening socket on its port belongs to that
server's process tree (``served_by``, from /proc: Linux, as the rest of the suite), and
fails at once if the server exited (it could not bind, say).

Also a command for shell scripts (scripts/fuzz_api.sh)::

    python tests/ports.py free
    python tests/ports.py wait PORT PID URL [TIMEOUT_S]   # exit 0 once PID serves URL
"""

from __future__ import annotations

import os
import socket
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

_LISTEN = "0A"  # TCP_LISTEN in /proc/net/tcp's st column


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on now (the kernel's choice for a bind to port 0)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return probe.getsockname()[1]


def listening_inodes(port: int) -> set[int]:
    """The socket inodes listening on TCP ``port``, any address, IPv4 or IPv6."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == _LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(int(fields[9]))
    return inodes


def process_tree(pid: int) -> set[int]:
    """``pid`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])  # the name may hold spaces
        children.setdefault(parent, []).append(int(entry.name))
    tree, todo = set(), [pid]
    while todo:
        current = todo.pop()
        if current not in tree:
            tree.add(current)
            todo.extend(children.get(current, []))
    return tree


def _socket_inodes(pid: int) -> set[int]:
    found = set()
    try:
        descriptors = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return found
    for descriptor in descriptors:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{descriptor}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(int(target[8:-1]))
    return found


def served_by(port: int, pid: int) -> bool:
    """True when something listens on ``port`` and every listening socket there is held
    by ``pid`` or one of its descendants (so no other server can have answered)."""
    listening = listening_inodes(port)
    if not listening:
        return False
    held = set()
    for member in process_tree(pid):
        held |= _socket_inodes(member)
    return listening <= held


def wait_until_served(port: int, process, ready: Callable[[], bool], timeout: float = 90,
                      what: str = "the server", log: Callable[[], str] | None = None) -> float:
    """Poll until ``process`` (a Popen, or a pid) holds ``port`` and ``ready()`` is true;
    returns the seconds it took. Raises at once if the process exits, and after
    ``timeout`` (with who holds the port, if not ours)."""
    pid = process if isinstance(process, int) else process.pid
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        exited = _exited(process)
        if exited:
            raise RuntimeError(f"{what} exited before serving port {port}"
                               + (":\n" + log() if log else ""))
        if served_by(port, pid) and ready():
            return time.monotonic() - started
        time.sleep(0.2)
    holder = "nothing" if not listening_inodes(port) else "another process"
    raise RuntimeError(f"{what} (pid {pid}) did not serve port {port} within {timeout:.0f} s "
                       f"({holder} listens there)" + (":\n" + log() if log else ""))


def _exited(process) -> bool:
    if isinstance(process, int):
        return not Path(f"/proc/{process}").exists()
    return process.poll() is not None


def answers(url: str, timeout: float = 2) -> bool:
    """``url`` answers 200 (a health or metrics endpoint)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            return response.status == 200
    except (OSError, urllib.error.URLError):
        return False


def _main(argv: list[str]) -> int:
    if argv[:1] == ["free"]:
        print(free_port())
        return 0
    if argv[:1] == ["wait"] and len(argv) in (4, 5):
        port, pid, url = int(argv[1]), int(argv[2]), argv[3]
        timeout = float(argv[4]) if len(argv) == 5 else 60
        try:
            wait_until_served(port, pid, lambda: answers(url), timeout)
        except RuntimeError as error:
            print(error, file=sys.stderr)
            return 1
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
