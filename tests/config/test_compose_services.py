"""docker-compose.yml starts (issue 40), proven without a container engine: `compose
config` validates the file, and every service's own command line runs with the
environment compose gives it, outside containers, in compose's start order
(tests/compose_stack.py says what is mapped onto this machine and how): ``redis`` with its
password, ``migrate`` exits 0 on a fresh database, ``web`` passes the image's health check
and serves its probes and its metrics, ``worker`` and ``analyst`` answer their compose
health check (``celery inspect ping``), ``beat`` runs and writes its schedule, and
``entry`` (the shipped nginx configuration) passes its health check and reaches ``web``.

Before: ``migrate`` and ``beat`` exited 1 (PROMETHEUS_MULTIPROC_DIR set, never created),
so nothing that waits for ``migrate`` ever started. Also here: no password of the file has
a default any more (the published ones were accepted silently)."""

from __future__ import annotations

import base64
import os
import re
import secrets
import shutil
import socket
import subprocess
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest
import redis
import yaml

from tests.compose_stack import (
    NOT_RUN,
    LocalMapping,
    compose_command,
    compose_config,
    dependencies,
    image_env,
    image_healthcheck,
    start_order,
    unescape,
)
from tests.deploy_processes import answers, request, stop, tail
from tests.nginx_entry import nginx_binary, running_entry
from tests.ports import free_port
from tests.workers import ROOT

pytestmark = pytest.mark.slow

PASSWORDS = ("POSTGRES_SUPERUSER_PASSWORD", "POSTGRES_OWNER_PASSWORD", "POSTGRES_PASSWORD",
             "REDIS_PASSWORD")


def _local_url(name: str, fallback: str) -> tuple:
    url = urlsplit(os.environ.get(name) or fallback)
    return url.hostname, url.port, url.username, url.password


PG_PORT = int(os.environ.get("PG_PORT", 54329))
OWNER = _local_url("DATABASE_OWNER_URL",
                   f"postgres://game_owner:game_owner@127.0.0.1:{PG_PORT}/game")
RUNTIME = _local_url("DATABASE_URL", f"postgres://game:game@127.0.0.1:{PG_PORT}/game")


def compose_variables() -> dict[str, str]:
    """What an operator exports before `docker compose up`: here the local roles'
    passwords (the local PostgreSQL stands in for the ``postgres`` service)."""
    return {
        "SECRET_KEY": secrets.token_urlsafe(50),
        "RECORD_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
        "POSTGRES_SUPERUSER_PASSWORD": secrets.token_hex(16),
        "POSTGRES_OWNER_PASSWORD": OWNER[3], "POSTGRES_PASSWORD": RUNTIME[3],
        "REDIS_PASSWORD": secrets.token_hex(16),
    }


@pytest.fixture(scope="module")
def compose() -> list[str]:
    command = compose_command()
    if command is None:
        message = "no docker compose / docker-compose: make deploy-tools installs it"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return command


def test_compose_config_validates_the_file(compose):
    result = compose_config(compose, compose_variables(), quiet=True)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("missing", PASSWORDS)
def test_compose_refuses_to_start_without_each_password(compose, missing):
    variables = compose_variables()
    del variables[missing]
    result = compose_config(compose, variables, quiet=True)
    assert result.returncode != 0
    assert missing in result.stderr, result.stderr


class Stack:
    """The services' processes, their states and their logs."""

    def __init__(self, root: Path, mapping: LocalMapping, services: dict):
        self.root, self.mapping, self.services = root, mapping, services
        self.processes: dict[str, subprocess.Popen] = {}
        self.env: dict[str, dict] = {}
        self.ports: dict[str, dict[str, int]] = {}
        self.state: dict[str, str] = {}

    def log(self, name: str) -> Path:
        return self.root / f"{name}.log"

    def app_env(self, name: str) -> dict[str, str]:
        """The image's ENV, then the service's environment, mapped; the image's PATH
        (python, celery) is the checkout's venv here."""
        env = {**image_env(), **{key: self.mapping.value(name, unescape(str(value)))
                                 for key, value in
                                 (self.services[name].get("environment") or {}).items()}}
        ports = {"PORT": free_port(), "METRICS_PORT": free_port()}
        self.ports[name] = ports
        env.update({
            "PATH": f"{ROOT / '.venv' / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.mapping.tmp_of(name)), "HOSTNAME": socket.gethostname(),
            "HOST": "127.0.0.1" if env.get("HOST") == "0.0.0.0" else env.get("HOST", ""),
            "METRICS_HOST": "127.0.0.1",
            **{key: str(port) for key, port in ports.items()},
        })
        return env

    def check_dependencies(self, name: str) -> None:
        """What ``depends_on`` waits for has happened (compose would wait, not fail)."""
        for needed, condition in dependencies(self.services[name]).items():
            if needed in NOT_RUN:
                continue
            wanted = {"service_completed_successfully": "completed",
                      "service_healthy": "healthy"}.get(condition, "started")
            state = self.state.get(needed)
            met = (state in {"started", "healthy", "completed"} if wanted == "started"
                   else state == wanted)
            assert met, f"{name} needs {needed} {condition}, which is {state}"

    def launch(self, name: str) -> None:
        service = self.services[name]
        self.check_dependencies(name)
        command = [unescape(str(part)) for part in service["command"]]
        if name == "redis":
            env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                   **{key: str(value) for key, value in (service.get("environment") or {})
                      .items()}}
            command += ["--port", str(self.mapping.redis_port), "--bind", "127.0.0.1"]
        else:
            env = self.app_env(name)
            command = [self.mapping.value(name, part) for part in command]
        self.env[name] = env
        with open(self.log(name), "ab") as log:
            self.processes[name] = subprocess.Popen(
                command, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True)
        self.state[name] = "started"

    def healthcheck(self, name: str) -> list[str] | None:
        """The command compose (or the image) checks the service's health with, mapped."""
        check = self.services[name].get("healthcheck") or {}
        test = check.get("test")
        # `disable: true`, which compose v1 writes as the test ["NONE"]
        if check.get("disable") or test in (["NONE"], "NONE"):
            return None
        if test is None:
            if self.services[name].get("image", "").startswith("han-hansa-service"):
                return [part.replace("127.0.0.1:8000", f"127.0.0.1:{self.ports[name]['PORT']}")
                        for part in image_healthcheck()]
            return None
        if isinstance(test, str):
            test = ["CMD-SHELL", test]
        kind, *rest = test
        if name == "redis":
            rest = [part.replace("redis-cli", f"redis-cli -p {self.mapping.redis_port}")
                    for part in rest]
        rest = [unescape(part) for part in rest]
        return ["/bin/sh", "-c", rest[0]] if kind == "CMD-SHELL" else rest

    def settle(self, name: str, timeout: float = 180) -> None:
        """Until the service is what its dependents may wait for: a one-shot exits 0,
        a service with a health check passes it, any other is still running after 5 s."""
        process, check = self.processes[name], self.healthcheck(name)
        one_shot = self.services[name].get("restart") == "no" and check is None
        started = time.monotonic()
        while time.monotonic() - started < timeout:
            code = process.poll()
            if one_shot and code is not None:
                assert code == 0, f"{name} exited {code}:\n{tail(self.log(name))}"
                self.state[name] = "completed"
                return
            assert code is None, f"{name} exited {code}:\n{tail(self.log(name))}"
            if check is not None:
                result = subprocess.run(check, cwd=ROOT, env=self.env[name],
                                        capture_output=True, timeout=60)
                if result.returncode == 0:
                    self.state[name] = "healthy"
                    return
            elif not one_shot and time.monotonic() - started > 5:
                return
            time.sleep(1)
        raise AssertionError(f"{name} not settled after {timeout} s:\n{tail(self.log(name))}")

    def stop_all(self) -> None:
        for name in reversed(list(self.processes)):
            stop(self.processes[name])


def _database(create: bool, name: str) -> None:
    """Create or drop the fresh database ``migrate`` starts from, as the owner role."""
    host, port, user, password = OWNER
    existing = urlsplit(os.environ.get("DATABASE_OWNER_URL") or "postgres:///game").path
    with psycopg.connect(host=host, port=port, user=user, password=password,
                         dbname=existing.lstrip("/") or "game", autocommit=True) as admin:
        if create:
            admin.execute(f'CREATE DATABASE "{name}"')
        else:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_every_service_starts_from_its_own_command_line(compose):
    result = compose_config(compose, compose_variables())
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    services = {name: service for name, service in resolved["services"].items()
                if not service.get("profiles")}
    order = start_order(services)
    root = Path(tempfile.mkdtemp(prefix="compose-services-"))
    database = f"game_compose_{secrets.token_hex(4)}"
    mapping = LocalMapping(root, OWNER[0], OWNER[1], database, free_port())
    stack = Stack(root, mapping, services)
    _database(True, database)
    try:
        with ExitStack() as later:
            for name in order:
                if name in NOT_RUN:
                    continue
                if name == "entry":
                    stack.check_dependencies(name)
                    nginx_binary()  # skips (or fails under CI) without nginx
                    entry_port = later.enter_context(
                        running_entry(root, stack.ports["web"]["PORT"]))
                    assert request(entry_port, "/health/proxy")[0] == 200
                    status, body, _ = request(entry_port, "/health/ready")
                    assert (status, body) == (200, {"status": "ok", "database": "ok",
                                                    "redis": "ok"}), tail(stack.log("web"))
                    continue
                stack.launch(name)
                stack.settle(name)

            assert stack.state["migrate"] == "completed"
            web = stack.ports["web"]["PORT"]
            assert request(web, "/health/live")[:2] == (200, {"status": "ok"})
            assert request(web, "/health/ready")[1] == {"status": "ok", "database": "ok",
                                                        "redis": "ok"}
            for name in ("web", "worker", "analyst"):
                assert answers(stack.ports[name]["METRICS_PORT"], "/metrics"), name
                assert stack.state[name] == "healthy", name
            schedule = Path(mapping.value("beat", "/tmp/celerybeat-schedule"))
            assert stack.processes["beat"].poll() is None, tail(stack.log("beat"))
            assert list(schedule.parent.glob(schedule.name + "*")), tail(stack.log("beat"))
            # compose's Redis takes no command without the password its URLs carry
            with pytest.raises(redis.AuthenticationError):
                redis.Redis(port=mapping.redis_port).ping()
    finally:
        stack.stop_all()
        _database(False, database)
        shutil.rmtree(root, ignore_errors=True)


def _resolved(compose) -> dict:
    result = compose_config(compose, compose_variables())
    assert result.returncode == 0, result.stderr
    return yaml.safe_load(result.stdout)["services"]


def test_every_service_rotates_its_logs(compose):
    """Docker keeps everything a container writes unless told otherwise."""
    unbounded = [name for name, service in _resolved(compose).items()
                 if not ((service.get("logging") or {}).get("options") or {}).get("max-size")]
    assert not unbounded, f"services without a log size limit: {unbounded}"


def test_the_documented_compose_restore_writes_into_a_volume(compose):
    """docs/operations.md's restore under compose writes its cluster into a volume of the
    postgres service, not into the container (lost with `run --rm`)."""
    text = (ROOT / "docs" / "operations.md").read_text()
    paragraph = text[text.index("**Under docker compose.**"):]
    paragraph = paragraph[:paragraph.index("\n\n")].replace("\n", " ")
    target = re.search(r"restore\.sh --data (\S+)", paragraph).group(1)
    volumes = _resolved(compose)["postgres"]["volumes"]
    mounts = [volume["target"] if isinstance(volume, dict) else volume.split(":")[1]
              for volume in volumes
              if (volume.get("type") == "volume" if isinstance(volume, dict)
                  else not volume.startswith((".", "/")))]
    assert any(target == mount or target.startswith(mount.rstrip("/") + "/")
               for mount in mounts), (target, mounts)
