"""The probes against a real web tier (scripts/serve_web.sh) with real failures (issue
40, infra/probes.py): a Redis that stops, a wrong database password, an ALLOWED_HOSTS
without the probe's address. Before, one endpoint answered 503 when only Redis was down
(a balancer would drop every instance while the API served), hung for the pool's 10 s
on a wrong password (the image's probe gives up after 3 s), and answered 400 to a probe
whose Host was not in ALLOWED_HOSTS."""

from __future__ import annotations

import base64
import os
import secrets
from contextlib import contextmanager
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.deploy_processes import request, start, stop, tail, throwaway_redis, wait_serving
from tests.ports import free_port
from tests.workers import ROOT

pytestmark = pytest.mark.slow  # real web tiers

LIVE, READY, OLD_NAME = "/health/live", "/health/ready", "/api/v1/health"
#: the image's HEALTHCHECK timeout (Dockerfile), which a readiness answer must beat
PROBE_TIMEOUT_S = 3


def _runtime_database_url(password: str | None = None) -> str:
    url = urlsplit(os.environ.get("DATABASE_URL")
                   or f"postgres://game:game@127.0.0.1:{os.environ.get('PG_PORT', 54329)}/game")
    if password is None:
        return url.geturl()
    netloc = f"{url.username}:{password}@{url.hostname}:{url.port}"
    return urlunsplit((url.scheme, netloc, url.path, "", ""))


@contextmanager
def web_tier(tmp_path, **overrides: str):
    """serve_web.sh with production settings (DEBUG off, HTTPS on), one process; waits
    for its liveness probe."""
    port = free_port()
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "false",
           "HTTPS": "true", "SECRET_KEY": secrets.token_urlsafe(50),
           "RECORD_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
           "HOST": "127.0.0.1", "PORT": str(port), "WEB_PROCESSES": "1",
           "DATABASE_URL": _runtime_database_url(), "DATABASE_OWNER_URL": "",
           "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "LOG_LEVEL": "WARNING",
           **overrides}
    log_path = tmp_path / "web.log"
    process = start([str(ROOT / "scripts" / "serve_web.sh")], env, log_path, ROOT)
    try:
        wait_serving(process, port, LIVE, log_path, "the web tier")
        yield port, log_path
    finally:
        stop(process)


def test_probes_answer_any_host_and_redis_down_is_degraded_not_failing(tmp_path):
    with throwaway_redis(tmp_path) as (redis_process, redis_port):
        with web_tier(tmp_path, ALLOWED_HOSTS="game.example.org",
                      REDIS_URL=f"redis://127.0.0.1:{redis_port}/0") as (port, log_path):
            # ALLOWED_HOSTS is in force for everything else
            assert request(port, "/api/v1/games")[0] == 400, tail(log_path)
            for path in (LIVE, READY, OLD_NAME):
                status, body, _ = request(port, path)  # Host: 127.0.0.1, plain HTTP
                assert status == 200, (path, body, tail(log_path))
            assert request(port, READY)[1] == {"status": "ok", "database": "ok",
                                               "redis": "ok"}

            stop(redis_process)

            for path in (READY, OLD_NAME):
                status, body, elapsed = request(port, path)
                assert (status, body) == (200, {"status": "degraded", "database": "ok",
                                                "redis": "down"}), tail(log_path)
                assert elapsed < PROBE_TIMEOUT_S
            assert request(port, LIVE)[:2] == (200, {"status": "ok"})


def test_a_wrong_database_password_fails_readiness_within_the_probe_timeout(tmp_path):
    with web_tier(tmp_path, DATABASE_URL=_runtime_database_url(secrets.token_hex(8)),
                  REDIS_URL=os.environ.get("REDIS_URL", "redis://127.0.0.1:63799/0")) as (
            port, log_path):
        for path in (READY, OLD_NAME):
            status, body, elapsed = request(port, path, timeout=30)
            assert (status, body) == (503, {"status": "unavailable", "database": "down",
                                            "redis": "ok"}), tail(log_path)
            assert elapsed < PROBE_TIMEOUT_S, f"{path} took {elapsed:.1f} s"
        assert request(port, LIVE)[:2] == (200, {"status": "ok"})
