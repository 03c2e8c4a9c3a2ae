"""The shipped entry point (deploy/nginx.conf) run by Debian's nginx on loopback, in front
of a web tier of the test's own: the file as shipped, with only what names compose's
network replaced (its listen port, Docker's resolver, the ``web`` service's name).

Without nginx the tests that need it skip, and fail under CI (``make deploy-tools``,
scripts/deploy_tools.sh, installs it as root)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.deploy_processes import start, stop, tail
from tests.ports import free_port, wait_until_served
from tests.workers import ROOT

SHIPPED = ROOT / "deploy" / "nginx.conf"
MAIN = """daemon off;
worker_processes 1;
{user}
pid {dir}/nginx.pid;
error_log {dir}/error.log warn;
events {{ worker_connections 512; }}
http {{
    access_log {dir}/access.log;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    include {dir}/entry.conf;
}}
"""


def nginx_binary() -> str:
    binary = shutil.which("nginx") or ("/usr/sbin/nginx" if os.path.exists("/usr/sbin/nginx")
                                       else None)
    if binary:
        return binary
    message = "no nginx: make deploy-tools (scripts/deploy_tools.sh) installs Debian's"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def entry_conf(listen_port: int, web_port: int) -> str:
    """deploy/nginx.conf with compose's names replaced by loopback ports; each replaced
    line must be there, so a change of the shipped file cannot go untested."""
    text = SHIPPED.read_text()
    replacements = {
        "listen 8080;": f"listen 127.0.0.1:{listen_port};",
        "resolver 127.0.0.11 valid=5s ipv6=off;": "",
        "set $web http://web:8000;": f"set $web http://127.0.0.1:{web_port};",
    }
    for shipped, local in replacements.items():
        assert text.count(shipped) == 1, f"deploy/nginx.conf no longer has {shipped!r}"
        text = text.replace(shipped, local)
    return text


@contextmanager
def running_entry(tmp_path: Path, web_port: int) -> Iterator[int]:
    """nginx with the shipped server block in front of ``web_port``: yields its port."""
    binary = nginx_binary()
    directory = tmp_path / "nginx"
    directory.mkdir()
    port = free_port()
    (directory / "entry.conf").write_text(entry_conf(port, web_port))
    (directory / "nginx.conf").write_text(MAIN.format(
        dir=directory, user="user root;" if os.geteuid() == 0 else ""))
    check = subprocess.run([binary, "-t", "-p", str(directory), "-e", "stderr",
                            "-c", str(directory / "nginx.conf")],
                           capture_output=True, text=True, timeout=30)
    assert check.returncode == 0, check.stderr
    log_path = directory / "nginx.out"
    process = start([binary, "-p", str(directory), "-e", "stderr",
                     "-c", str(directory / "nginx.conf")], os.environ.copy(), log_path, ROOT)
    try:
        wait_until_served(port, process, lambda: True, 30, "nginx",
                          log=lambda: tail(log_path) + tail(directory / "error.log"))
        yield port
    finally:
        stop(process)
