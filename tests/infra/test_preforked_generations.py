"""Which forkserver the web tier forks from after a rolling restart (infra/preforked_uvicorn.py):
the new one when every process was replaced; the old one when uvicorn gave up part-way (a
new process not ready in time), so a process that dies later is replaced with the release
that serves, never with the one that could not start. uvicorn's own restart is replaced by
stand-ins that do what it does (replace the processes in order, or stop at one); nothing
is forked: a forkserver starts only when a process is started."""

from __future__ import annotations

from multiprocessing import forkserver
from types import SimpleNamespace

import pytest

from infra import preforked_uvicorn
from infra.preforked_uvicorn import Generations

#: multiprocessing's names a new generation points at its forkserver
_FORKSERVER_NAMES = ("_forkserver", "ensure_running", "get_inherited_fds",
                     "connect_to_new_process", "set_forkserver_preload")


@pytest.fixture
def generations(monkeypatch) -> Generations:
    for name in _FORKSERVER_NAMES:
        monkeypatch.setattr(forkserver, name, getattr(forkserver, name))
    made = Generations()
    monkeypatch.setattr(preforked_uvicorn, "generations", made)
    made.begin()
    return made


def _worker(generations: Generations) -> SimpleNamespace:
    """What uvicorn's supervisor holds of a process: its multiprocessing Process."""
    return SimpleNamespace(process=generations.process(target=print))


def _ended(process) -> None:
    """``process`` (never started here) reads as one that ended (its exit code set)."""
    process._popen = SimpleNamespace(poll=lambda *args: -15)


def _restart(generations: Generations, monkeypatch, replaced: int) -> SimpleNamespace:
    """A supervisor of two processes, restarted by a stand-in of uvicorn's restart_all that
    replaces the first ``replaced`` of them and then gives up (2: it gave up on none)."""
    supervisor = SimpleNamespace(processes=[_worker(generations), _worker(generations)])

    def restart_all(self) -> None:
        for index in range(replaced):
            _ended(self.processes[index].process)  # terminated and joined, as uvicorn does
            self.processes[index] = _worker(generations)

    monkeypatch.setattr(preforked_uvicorn, "_restart_all", restart_all)
    preforked_uvicorn._restart_all_with_new_code(supervisor)
    return supervisor


def test_a_complete_restart_forks_from_the_new_code(generations, monkeypatch):
    old = generations.current
    _restart(generations, monkeypatch, replaced=2)
    assert generations.current is not old
    assert forkserver._forkserver is generations.current
    assert generations.servers == [generations.current]  # the old one had no process left


def test_a_restart_given_up_part_way_keeps_forking_from_the_old_code(generations, monkeypatch):
    old = generations.current
    supervisor = _restart(generations, monkeypatch, replaced=1)
    assert generations.current is old
    assert forkserver._forkserver is old
    new = generations.servers[-1]
    assert new is not old  # it lives on while the process it forked does
    # a process that dies now is replaced from the old code
    assert generations.forked_by_current(_worker(generations).process)
    assert not generations.forked_by_current(supervisor.processes[0].process)


def test_a_restart_given_up_at_once_leaves_only_the_old_code(generations, monkeypatch):
    old = generations.current
    _restart(generations, monkeypatch, replaced=0)
    assert generations.current is old
    assert forkserver._forkserver is old
    assert generations.servers == [old]  # the new one forked nothing that lives
