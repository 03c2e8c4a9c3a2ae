"""docker-compose.yml's services run outside containers (no container engine on these
machines): each service's own command line, with the environment compose gives it (the
image's ENV from the Dockerfile, then the service's ``environment``), its working
directory, in compose's start order (``depends_on``). As this machine's user, not the
image's ``app``: the checkout's interpreter may live where no other user may read.
What only names compose's network is mapped onto this machine:

- the ``postgres`` service is the local PostgreSQL (a database of the test's own), the
  ``redis`` service is compose's own redis command on a free loopback port;
- every listening port (``PORT``, ``METRICS_PORT``) is a free one, on 127.0.0.1;
- each container's ``/tmp`` is a directory of its own;
- ``backups-volume`` (a chown inside an image) and the profiles' services are not run.

Read by tests/config/test_compose_services.py."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path

from tests.workers import ROOT

COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
#: services whose work happens inside an image we do not build (stood in for, or skipped)
NOT_RUN = {"postgres", "backups-volume"}


def compose_command() -> list[str] | None:
    """Docker's compose plugin, else the standalone docker-compose; None without either."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True,
                                 timeout=30).returncode == 0:
        return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


def compose_config(command: list[str], variables: dict, quiet: bool = False
                   ) -> subprocess.CompletedProcess:
    """``compose config`` of the shipped file with only ``variables`` (and PATH) set."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
           **variables}
    return subprocess.run([*command, "--project-directory", str(ROOT), "-f",
                           str(COMPOSE_FILE), "config", *(["-q"] if quiet else [])],
                          env=env, capture_output=True, text=True, timeout=60)


def image_env() -> dict[str, str]:
    """The ENV instructions of the Dockerfile, in order."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    env: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("ENV "):
            for item in shlex.split(line[4:]):
                name, _, value = item.partition("=")
                env[name] = value
    return env


def image_healthcheck() -> list[str]:
    """The exec form of the Dockerfile's HEALTHCHECK CMD."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*\])\s*$", text, re.MULTILINE)
    assert match, "the Dockerfile has no HEALTHCHECK CMD [...]"
    return json.loads(match.group(1))


def start_order(services: dict) -> list[str]:
    """The services, each after everything it depends on (compose's order)."""
    order: list[str] = []

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, f"depends_on cycle: {path + (name,)}"
        if name in order:
            return
        for needed in dependencies(services[name]):
            visit(needed, path + (name,))
        order.append(name)

    for name in services:
        visit(name, ())
    return order


def dependencies(service: dict) -> dict[str, str]:
    """``depends_on`` as {service: condition}, whichever syntax the file uses."""
    depends = service.get("depends_on") or {}
    if isinstance(depends, list):
        return {name: "service_started" for name in depends}
    return {name: (spec or {}).get("condition", "service_started")
            for name, spec in depends.items()}


def unescape(text: str) -> str:
    """compose's ``$$`` is a literal ``$`` in the container."""
    return text.replace("$$", "$")


class LocalMapping:
    """Where compose's names point on this machine."""

    def __init__(self, root: Path, pg_host: str, pg_port: int, database: str,
                 redis_port: int):
        self.root = root
        self.pg = (pg_host, pg_port, database)
        self.redis_port = redis_port

    def tmp_of(self, service: str) -> Path:
        directory = self.root / service / "tmp"
        directory.mkdir(parents=True, exist_ok=True)
        return directory

    def value(self, service: str, text: str) -> str:
        host, port, database = self.pg
        text = re.sub(r"@postgres:5432/[\w-]+", f"@{host}:{port}/{database}", text)
        text = text.replace("@redis:6379/", f"@127.0.0.1:{self.redis_port}/")
        if text.startswith("/tmp/"):
            text = str(self.tmp_of(service)) + text[len("/tmp"):]
        return text
