"""Real processes for the deployment tests (tests/config/test_compose_services.py,
tests/infra/test_probes.py, tests/infra/test_nginx_forwarded.py): each started in a
session of its own, its output in a log file, stopped with its whole process group; a
throwaway Redis; plain HTTP requests that choose their Host and X-Forwarded-For."""

from __future__ import annotations

import http.client
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.ports import free_port, wait_until_served


def start(command: list[str], env: dict, log_path: Path, cwd: Path) -> subprocess.Popen:
    with open(log_path, "ab") as log:
        return subprocess.Popen(command, cwd=cwd, env=env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen, grace: float = 20) -> None:
    """TERM to the process's group (uvicorn's workers, Celery's pool, the exporter), then
    KILL whatever is left."""
    for sig, wait in ((signal.SIGTERM, grace), (signal.SIGKILL, 10)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=wait)
            break
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)  # the group may outlive its leader
    except ProcessLookupError:
        pass


def tail(log_path: Path, chars: int = 3000) -> str:
    try:
        return log_path.read_text(errors="replace")[-chars:]
    except OSError:
        return ""


def request(port: int, path: str, method: str = "GET", host: str = "127.0.0.1",
            headers: dict | None = None, body: dict | None = None,
            timeout: float = 30) -> tuple[int, dict | str, float]:
    """(status, JSON body or text, seconds) of one request on a fresh connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"Host": host, **(headers or {})}
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    started = time.monotonic()
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        raw = response.read()
    finally:
        connection.close()
    elapsed = time.monotonic() - started
    try:
        return response.status, json.loads(raw or b"{}"), elapsed
    except ValueError:
        return response.status, raw[:300].decode(errors="replace"), elapsed


def answers(port: int, path: str) -> bool:
    try:
        return request(port, path, timeout=5)[0] == 200
    except OSError:
        return False


def wait_serving(process: subprocess.Popen, port: int, path: str, log_path: Path,
                 what: str, timeout: float = 120) -> float:
    return wait_until_served(port, process, lambda: answers(port, path), timeout, what,
                             log=lambda: tail(log_path))


@contextmanager
def throwaway_redis(tmp_path: Path, extra_args: tuple[str, ...] = ()) -> Iterator[tuple]:
    """A redis-server of this test's own on a free loopback port: (process, port)."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    port = free_port()
    log_path = tmp_path / f"redis-{port}.log"
    process = start([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                     "--appendonly", "no", *extra_args], os.environ.copy(), log_path, tmp_path)
    try:
        wait_until_served(port, process, lambda: True, 30, "redis-server",
                          log=lambda: tail(log_path))
        yield process, port
    finally:
        stop(process)
