"""uvicorn's supervisor, with its web processes forked from one that loaded the app once
(scripts/serve_web.sh: ``python -m infra.preforked_uvicorn <uvicorn's options>``).

``uvicorn --workers N`` starts each process with multiprocessing's *spawn*: a fresh
interpreter that imports Django, DRF, strawberry, the engines and the rest on its own, so
N processes held N private copies of the same 110 MB of objects (issue 45). Here a
*forkserver* (multiprocessing's) imports ``config.preforked_app`` once, which loads
config.asgi and freezes the heap (infra/startup_heap.py), and forks every web process
from itself: the processes share those pages copy-on-write, and since the frozen objects
are out of the collector's reach, no collection writes to them.

Everything else is uvicorn's own supervisor, unchanged: the listening socket it binds, the
health pings, the restart of a process that dies, TERM's graceful stop, SIGTTIN/SIGTTOU.
SIGHUP still brings the new release's code (docs/operations.md "Rolling restarts"): a new
forkserver (a new *generation*) loads it, uvicorn replaces the processes one by one from
it (a new one serving before an old one retires), and the old forkserver stops once none
of its processes is left (it alone would then hold a private copy of the old release). A
restart uvicorn gives up (a new process not ready in time) leaves the old forkserver the
one later processes are forked from.

A process dies with its forkserver (PR_SET_PDEATHSIG, TERM: it finishes what it serves),
and a forkserver ends when the supervisor does: killing the supervisor leaves nothing.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from multiprocessing import forkserver

from uvicorn import _subprocess
from uvicorn.main import main as uvicorn_main
from uvicorn.supervisors import multiprocess as uvicorn_multiprocess

#: what each forkserver imports before it forks anything
PRELOAD = "config.preforked_app"
#: Linux's prctl option: the signal a process gets when its parent ends
_PR_SET_PDEATHSIG = 1


class Generations:
    """The forkservers of this supervisor: the current one forks new processes; an older
    one lives on while a process it forked does (a process's exit reaches the supervisor
    only through its forkserver)."""

    def __init__(self) -> None:
        self.current: forkserver.ForkServer | None = None
        self.servers: list[forkserver.ForkServer] = []  # begun and not stopped
        self.forked: list[tuple[forkserver.ForkServer, multiprocessing.Process]] = []

    def begin(self) -> None:
        """A new forkserver for the processes started from now on. It starts (and loads
        the code as it is on disk now) when the first of them is forked."""
        server = forkserver.ForkServer()
        server.set_forkserver_preload([PRELOAD])
        self.servers.append(server)
        self.make_current(server)

    def make_current(self, server: forkserver.ForkServer) -> None:
        """Fork processes started from now on from ``server``."""
        # multiprocessing's forkserver context reaches its server through these names
        forkserver._forkserver = server
        forkserver.ensure_running = server.ensure_running
        forkserver.get_inherited_fds = server.get_inherited_fds
        forkserver.connect_to_new_process = server.connect_to_new_process
        forkserver.set_forkserver_preload = server.set_forkserver_preload
        self.current = server

    def forked_by_current(self, made: multiprocessing.Process) -> bool:
        return any(server is self.current and each is made for server, each in self.forked)

    def process(self, **kwargs) -> multiprocessing.Process:
        self._forget_ended()
        made = multiprocessing.get_context("forkserver").Process(**kwargs)
        self.forked.append((self.current, made))
        return made

    def retire_idle(self) -> None:
        """Stop every older forkserver none of whose processes is alive any more (a
        restart that stopped half-way keeps the old one for the old processes)."""
        self._forget_ended()
        busy = {id(server) for server, _ in self.forked}
        for server in [server for server in self.servers
                       if server is not self.current and id(server) not in busy]:
            server._stop()
            self.servers.remove(server)

    def _forget_ended(self) -> None:
        self.forked = [(server, made) for server, made in self.forked
                       if made.exitcode is None]


generations = Generations()


def _serve(**kwargs) -> None:
    """A web process's first step: end with the forkserver that forked it, then serve
    as uvicorn's spawned processes do."""
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    # multiprocessing hands each forked process the write end of the pipe by which its
    # forkserver learns that the supervisor is gone: held here too, the forkserver would
    # outlive a killed supervisor (and this process with it)
    os.close(forkserver._forkserver._forkserver_alive_fd)
    forkserver._forkserver._forkserver_alive_fd = None
    _subprocess.subprocess_started(**kwargs)


def _get_subprocess(config, target, sockets):
    """uvicorn's get_subprocess (uvicorn/_subprocess.py), from the current forkserver."""
    try:
        stdin_fileno = sys.stdin.fileno()
    except (AttributeError, OSError):
        stdin_fileno = None
    return generations.process(target=_serve, kwargs={
        "config": config, "target": target, "sockets": sockets,
        "stdin_fileno": stdin_fileno})


def _restart_all_with_new_code(self) -> None:
    previous = generations.current
    generations.begin()
    _restart_all(self)
    if not all(generations.forked_by_current(process.process) for process in self.processes):
        # uvicorn gave up part-way (its log says so: a new process was not ready in time).
        # The processes it did not replace keep the old code, and so does any process
        # started later (one replacing a process that died): the tier never forks from a
        # release that could not start. The new forkserver lives while a process of it does.
        generations.make_current(previous)
    generations.retire_idle()


_restart_all = uvicorn_multiprocess.Multiprocess.restart_all


def main() -> None:
    generations.begin()
    uvicorn_multiprocess.get_subprocess = _get_subprocess
    uvicorn_multiprocess.Multiprocess.restart_all = _restart_all_with_new_code
    uvicorn_main()


if __name__ == "__main__":
    # by its import name, so that what a process is handed pickles as
    # infra.preforked_uvicorn, not __main__
    from infra.preforked_uvicorn import main as preforked_main

    preforked_main()
