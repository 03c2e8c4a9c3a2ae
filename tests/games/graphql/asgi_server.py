"""A real ASGI server for the subscription tests: daphne, or the production web tier
(uvicorn, several processes), serving config.asgi on a loopback port, against the test
database and a Redis channel layer of its own, and a small graphql-transport-ws client
built on the `websockets` library."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlparse

from django.conf import settings
from django.db import connection
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from tests.ports import free_port, served_by

ROOT = Path(__file__).resolve().parents[3]

#: Redis database for the channel layer of these tests, so parallel test runs that publish
#: to groups with the same match ids (ids restart at 1 in every test database) never meet.
CHANNEL_REDIS_DB = 9


def channel_redis_url() -> str:
    return urlparse(settings.REDIS_URL)._replace(path=f"/{CHANNEL_REDIS_DB}").geturl()


def channel_layers_setting() -> dict:
    return {
        "default": {
            "BACKEND": "infra.channel_layer.ResilientRedisChannelLayer",  # the project's
            "CONFIG": {"hosts": [channel_redis_url()]},
        }
    }


def _database_url() -> str:
    db = connection.settings_dict  # the test database, once pytest-django set it up
    user = quote(db["USER"] or "", safe="")
    password = quote(db["PASSWORD"] or "", safe="")
    return f"postgres://{user}:{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


@contextlib.contextmanager
def running_daphne(extra_env: dict | None = None):
    """Start daphne on a free loopback port; yield ``host:port``; stop it."""
    port = free_port()
    daphne = str(Path(sys.executable).with_name("daphne"))
    with _serving([daphne, "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                  port, extra_env or {}) as address:
        yield address


@contextlib.contextmanager
def running_web_tier(processes: int = 2, extra_env: dict | None = None,
                     log_path: Path | None = None):
    """Start the production web tier (scripts/serve_web.sh: uvicorn with ``processes``
    worker processes) on a free loopback port; yield ``host:port``; stop it. Its log goes
    to ``log_path``, or to a temporary file (never a pipe nobody reads, which would fill
    and stop a server that logs much)."""
    port = free_port()
    env = {"HOST": "127.0.0.1", "PORT": str(port), "WEB_PROCESSES": str(processes),
           # the uvicorn of the interpreter running the tests, wherever its venv is
           "UVICORN": str(Path(sys.executable).with_name("uvicorn")),
           "PYTHON": sys.executable, **(extra_env or {})}
    with _serving([str(ROOT / "scripts" / "serve_web.sh")], port, env,
                  log_path) as address:
        yield address


@contextlib.contextmanager
def _serving(command: list[str], port: int, extra_env: dict, log_path: Path | None = None):
    env = {
        **os.environ,
        "DATABASE_URL": _database_url(),
        "CHANNEL_REDIS_URL": channel_redis_url(),
        # Bots and scoring inline, so nothing is queued on the shared broker.
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        **extra_env,
    }
    # a file, never a pipe: a pipe nobody reads fills (64 KiB of log lines) and the
    # server then blocks on its next line
    log = open(log_path, "a+b") if log_path is not None \
        else tempfile.TemporaryFile()  # noqa: SIM115
    process = subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
        stderr=log, start_new_session=True,  # uvicorn's worker processes stop with it
    )
    address = f"127.0.0.1:{port}"
    try:
        _wait_until_serving(address, port, process, log)
        yield address
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # its own session: the server's group
            process.wait(timeout=5)
        log.close()


def _wait_until_serving(address: str, port: int, process: subprocess.Popen, log,
                        timeout: float = 40) -> None:
    """Until the server we started holds ``port`` (tests/ports.py: another server there
    must never pass for ours) and answers a GraphQL query."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"server exited: {log.read().decode(errors='replace')[-2000:]}")
        if not served_by(port, process.pid):
            time.sleep(0.2)
            continue
        try:
            with urllib.request.urlopen(f"http://{address}/graphql/?query=%7B__typename%7D",
                                        timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.2)
    raise RuntimeError("the server did not start in time")


def http_json(address: str, method: str, path: str, body: dict | None = None,
              token: str | None = None) -> tuple[int, dict]:
    """A plain HTTP request to the running server (REST or GraphQL)."""
    request = urllib.request.Request(
        f"http://{address}{path}", method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json",
                 **({"Authorization": f"Token {token}"} if token else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


class Subscriber:
    """One websocket speaking graphql-transport-ws, with one subscription."""

    def __init__(self, address: str, *, token: str | None = None, token_in_query: bool = False):
        self.url = f"ws://{address}/graphql/"
        if token and token_in_query:
            self.url += f"?token={token}"
        self.init_payload = {"authToken": token} if token and not token_in_query else {}
        self.ws = None

    async def open(self) -> dict:
        self.ws = await connect(self.url, subprotocols=[Subprotocol("graphql-transport-ws")])
        await self.ws.send(json.dumps({"type": "connection_init", "payload": self.init_payload}))
        return await self.receive()

    async def subscribe(self, query: str, variables: dict) -> None:
        await self.ws.send(json.dumps(
            {"id": "1", "type": "subscribe", "payload": {"query": query, "variables": variables}}
        ))

    async def receive(self, timeout: float = 20) -> dict:
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            if message.get("type") == "ping":
                await self.ws.send(json.dumps({"type": "pong"}))
                continue
            return message

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
