"""tests/ports.py: a wait for a server the test started is never satisfied by another
server on the same port (issue 39: the restore drill's health wait on its fixed port 8951
passed against another server there, and the drill then failed with match_not_found)."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from tests.ports import answers, free_port, served_by, wait_until_served

HTTP_SERVER = [sys.executable, "-m", "http.server", "--bind", "127.0.0.1"]


def _serve(port: int) -> subprocess.Popen:
    return subprocess.Popen([*HTTP_SERVER, str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _stop(process: subprocess.Popen) -> None:
    process.terminate()
    process.wait(timeout=10)


def test_free_ports_are_free_and_differ():
    first, second = free_port(), free_port()
    assert first != second or first > 0
    assert not served_by(first, 1)


def test_a_server_we_started_is_found_serving_its_port():
    port = free_port()
    ours = _serve(port)
    try:
        url = f"http://127.0.0.1:{port}/"
        assert wait_until_served(port, ours, lambda: answers(url), timeout=30) >= 0
        assert served_by(port, ours.pid)
    finally:
        _stop(ours)


def test_another_server_on_the_port_never_passes_for_ours():
    port = free_port()
    other = _serve(port)  # the stranger, there first
    # a server of ours that never binds (as one that lost the port would, or a slow one)
    ours = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        url = f"http://127.0.0.1:{port}/"
        deadline = time.monotonic() + 30
        while not answers(url) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert answers(url), "the stranger should answer"  # what the old wait checked
        assert not served_by(port, ours.pid)
        with pytest.raises(RuntimeError, match="another process listens there"):
            wait_until_served(port, ours, lambda: answers(url), timeout=1.5)
    finally:
        _stop(ours)
        _stop(other)


def test_a_server_that_exits_fails_the_wait_at_once():
    port = free_port()
    other = _serve(port)
    wait_until_served(port, other, lambda: True, timeout=30)
    loser = _serve(port)  # cannot bind: the port is taken, it exits
    try:
        started = time.monotonic()
        with pytest.raises(RuntimeError, match="exited before serving"):
            wait_until_served(port, loser, lambda: answers(f"http://127.0.0.1:{port}/"),
                              timeout=60)
        assert time.monotonic() - started < 30
    finally:
        _stop(loser)
        _stop(other)
