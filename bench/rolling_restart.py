"""A rolling restart of a running service, as docs/operations.md "Rolling restarts"
describes it: each web tier's uvicorn processes replaced one by one (SIGHUP to
scripts/serve_web.sh's uvicorn: it starts a new process, waits until it serves, then
retires an old one gracefully), then each Celery worker in turn (a new one started and
answering a ping first, then the old one stopped with TERM: a warm shutdown that finishes
its running tasks; with acks_late, what it had taken but not run goes back to the queue).
Used by bench/load_test.py (--rolling-restart-at) and tests/fault/test_rolling_restart.py."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable

from bench.process_tree import child_map, command_line


def _children(pid: int) -> list[tuple[int, bytes]]:
    """The child processes of ``pid``, with their command lines."""
    return [(child, command_line(child)) for child in child_map().get(pid, [])]


def web_processes(supervisor_pid: int) -> set[int]:
    """The uvicorn server processes under a supervisor: those its forkservers forked
    (infra/preforked_uvicorn.py), or with WEB_PREFORK=false multiprocessing's spawned
    children; not the forkservers themselves, nor the resource tracker."""
    found = set()
    for child, command in _children(supervisor_pid):
        if b"spawn_main" in command:
            found.add(child)
        elif b"multiprocessing.forkserver" in command:
            found.update(grandchild for grandchild, _ in _children(child))
    return found


def _wait(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise RuntimeError(f"rolling restart: no {what} within {timeout:.0f} s")


def restart_web(supervisor: subprocess.Popen, timeout: float = 180) -> dict:
    """SIGHUP, then wait until every old uvicorn process is gone and as many new ones
    serve. Returns the old and new pids."""
    old = web_processes(supervisor.pid)
    supervisor.send_signal(signal.SIGHUP)

    def replaced() -> bool:
        now = web_processes(supervisor.pid)
        return len(now) == len(old) and not (now & old)

    _wait(replaced, timeout, "new web processes")
    return {"old": sorted(old), "new": sorted(web_processes(supervisor.pid))}


def replace_worker(old: subprocess.Popen, start_new: Callable[[], subprocess.Popen],
                   is_ready: Callable[[subprocess.Popen], bool],
                   timeout: float = 120) -> subprocess.Popen:
    """Start the replacement, wait until it answers, then stop ``old`` with TERM (warm
    shutdown: running tasks finish) and wait for it to exit."""
    new = start_new()
    _wait(lambda: new.poll() is None and is_ready(new), timeout, "ready new worker")
    old.send_signal(signal.SIGTERM)
    try:
        old.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(old.pid, signal.SIGKILL)
        old.wait()
        raise RuntimeError("rolling restart: a worker's warm shutdown did not end") from None
    return new


def ping_worker(app, worker: subprocess.Popen) -> bool:
    """Whether the worker started with ``-n NAME@%h`` answers a remote-control ping."""
    name = worker.args[worker.args.index("-n") + 1].replace("%h", os.uname().nodename)
    # a connection of its own, closed after: one left in the app's pool would be stale
    # after a Redis restart and fail the next caller's ping (tests/fault/ share a process)
    with app.connection_for_write() as connection:
        return bool(app.control.ping(destination=[name], timeout=1.0, connection=connection))


def roll(web: list[subprocess.Popen], workers: list[subprocess.Popen],
         start_like: Callable[[int], subprocess.Popen],
         is_ready: Callable[[subprocess.Popen], bool]) -> dict:
    """The whole rolling restart: every web tier in turn, then every worker in turn
    (``start_like(i)`` starts a replacement for ``workers[i]``; the list is updated in
    place). Returns what was replaced and how long it took."""
    started = time.monotonic()
    webs = [restart_web(supervisor) for supervisor in web]
    for index, worker in enumerate(workers):
        workers[index] = replace_worker(worker, lambda index=index: start_like(index), is_ready)
    return {"web": webs, "workers": len(workers), "seconds": time.monotonic() - started}
