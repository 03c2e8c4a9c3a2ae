"""The web tier's processes are forked from one that loaded the app (issue 45;
infra/preforked_uvicorn.py), over the real scripts/serve_web.sh:

- the processes are a forkserver's children and share most of their memory with it
  (smaps_rollup: shared pages over resident ones);
- SIGHUP replaces them from a new forkserver (new code), and the old forkserver is gone
  once its processes are;
- killing the supervisor outright leaves no process behind.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from bench.process_memory import rollup
from bench.rolling_restart import restart_web, web_processes
from infra.observability.process_metrics import _kind as process_kind
from tests.fault.serving import http, start_web, stop_web, wait_serving, web_env
from tests.ports import free_port
from tests.workers import runtime_database_url

pytestmark = pytest.mark.django_db(transaction=True)


def _parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat[stat.rindex(")") + 2:].split()[1])


def _command(pid: int) -> bytes:
    return Path(f"/proc/{pid}/cmdline").read_bytes()


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0] != "Z"
    except OSError:
        return False


def _wait(predicate, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"no {what} within {timeout:.0f} s")


def test_processes_share_the_loaded_app_and_a_restart_brings_a_new_forkserver(tmp_path):
    port = free_port()
    log = tmp_path / "web.log"
    web = start_web(web_env(runtime_database_url(), port), log)
    try:
        wait_serving(web, port, log)
        supervisor = web.pid  # serve_web.sh execs it
        assert b"infra.preforked_uvicorn" in _command(supervisor)
        first = web_processes(supervisor)
        assert len(first) == 2
        forkservers = {_parent(pid) for pid in first}
        assert len(forkservers) == 1
        (forkserver,) = forkservers
        assert b"multiprocessing.forkserver" in _command(forkserver)
        assert _parent(forkserver) == supervisor
        for pid in first:
            # the exporter's CPU and memory series name them web processes
            assert process_kind(pid) == "web"
            memory = rollup(pid)
            # the app's pages come from the forkserver: most of a process is shared (a
            # spawned process shares only the interpreter's and libraries' files: a
            # fifth of what it holds)
            assert memory["Shared_Dirty"] > memory["Private_Dirty"], memory

        replaced = restart_web(web)
        second = set(replaced["new"])
        assert len(second) == 2 and not second & first
        new_forkservers = {_parent(pid) for pid in second}
        assert len(new_forkservers) == 1 and forkserver not in new_forkservers
        _wait(lambda: not _alive(forkserver), 30, "end of the old forkserver")
        assert http(port, "GET", "/api/v1/health")[0] == 200

        os.kill(supervisor, signal.SIGKILL)
        left = second | new_forkservers
        _wait(lambda: not any(_alive(pid) for pid in left), 40,
              "end of the processes of a killed supervisor")
    finally:
        stop_web(web)
