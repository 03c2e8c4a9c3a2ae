"""The production web tier (scripts/serve_web.sh) and the players the backup and
rolling-restart fault tests drive through it over real HTTP (tests/fault/)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from rest_framework.authtoken.models import Token

from accounts.models import User
from config.celery import app as celery_app
from games.matches.selectors import legal_moves_for
from tests.games.support import TEST_BOT_QUEUE, TEST_QUEUE
from tests.ports import answers, free_port, wait_until_served
from tests.workers import ROOT, runtime_database_url


def web_env(database_url: str, port: int, processes: int = 2) -> dict:
    """What a deployed web process gets: the runtime role's DATABASE_URL, the test
    queues, production settings; never the owner's credentials."""
    return {
        **os.environ,
        "HOST": "127.0.0.1", "PORT": str(port), "WEB_PROCESSES": str(processes),
        "DATABASE_URL": database_url, "DATABASE_OWNER_URL": "",
        "CELERY_BROKER_URL": celery_app.conf.broker_url,
        "CELERY_TASK_DEFAULT_QUEUE": TEST_QUEUE, "CELERY_BOT_QUEUE": TEST_BOT_QUEUE,
        "CELERY_TASK_ALWAYS_EAGER": "0", "REDIS_URL": settings.REDIS_URL,
        "DEBUG": "false", "LOG_LEVEL": "WARNING",
    }


def start_web(env: dict, log_path: Path) -> subprocess.Popen:
    """scripts/serve_web.sh in its own session (its uvicorn processes go with it)."""
    with open(log_path, "ab") as log:
        return subprocess.Popen([str(ROOT / "scripts" / "serve_web.sh")], cwd=ROOT, env=env,
                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)


def stop_web(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            pass
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


@contextmanager
def serving_web(log_path: Path, **env: str) -> Iterator[int]:
    """One web process of the service on a free port, on the runtime role, with ``env``
    added to its environment, serving until the block ends: its port."""
    port = free_port()
    process = start_web({**web_env(runtime_database_url(), port, processes=1), **env},
                        log_path)
    try:
        wait_serving(process, port, log_path)
        yield port
    finally:
        stop_web(process)


def healthy(port: int) -> bool:
    """Whatever listens on ``port`` answers its health check (any server of this
    project would: waiting for one's own server is ``wait_serving``)."""
    return answers(f"http://127.0.0.1:{port}/api/v1/health")


def wait_serving(web: subprocess.Popen, port: int, log_path: Path, timeout: float = 90,
                 what: str = "the web tier") -> float:
    """Until ``web`` (start_web's) holds ``port`` and answers its health check there:
    another server on the port can never satisfy it (tests/ports.py)."""
    return wait_until_served(port, web, lambda: healthy(port), timeout, what,
                             log=lambda: log_path.read_text(errors="replace")[-3000:])


def http(port: int, method: str, path: str, token: str | None = None,
         body: dict | None = None, timeout: float = 30) -> tuple[int, dict]:
    """One request on a fresh connection: (status, JSON body). A connection error raises
    (OSError): the caller decides whether that is a failure."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Token {token}"
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}", method=method, headers=headers,
        data=json.dumps(body).encode() if body is not None else None)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        raw = error.read()
        try:
            return error.code, json.loads(raw or b"{}")
        except ValueError:
            return error.code, {"raw": raw[:200].decode(errors="replace")}


def player(name: str) -> tuple[User, str]:
    user = User.objects.create_user(username=name, password="drill-password-123")
    return user, Token.objects.create(user=user).key


def first_legal_move(match, user) -> tuple[dict, int]:
    legal = legal_moves_for(match, user)
    return legal["moves"][0], legal["ply"]
