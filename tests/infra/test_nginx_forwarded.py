"""A client cannot choose the address the rate limits count through the shipped entry
point (issue 40): deploy/nginx.conf run by real nginx in front of a real web tier
(scripts/serve_web.sh), which trusts X-Forwarded-For as compose configures it
(FORWARDED_ALLOW_IPS from docker-compose.yml, the entry point's fixed address standing for
this machine's loopback, where nginx connects from here).

Before: compose trusted every proxy ("*") and nginx appended to the client's header, so
uvicorn took the client-written leftmost entry: 12 sign-ins, each with a new forged
X-Forwarded-For, were never throttled (the limit is 10 a minute per address)."""

from __future__ import annotations

import base64
import http.client
import json
import os
import secrets
from urllib.parse import quote

import pytest
import yaml
from django.conf import settings
from django.db import connection

from tests.deploy_processes import start, stop, tail, throwaway_redis, wait_serving
from tests.nginx_entry import running_entry
from tests.ports import free_port
from tests.workers import ROOT

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

SIGN_IN = "/api/v1/auth/token/"
AUTH_LIMIT_PER_MINUTE = 10  # THROTTLE_AUTH's default (config/settings.py)


def compose_trusted_proxies() -> str:
    """FORWARDED_ALLOW_IPS as docker-compose.yml gives it to ``web``, with the entry
    point's own address (where nginx connects from there) mapped to 127.0.0.1 (where it
    connects from here)."""
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    value = str(compose["x-app"]["environment"]["FORWARDED_ALLOW_IPS"])
    entry_networks = compose["services"]["entry"].get("networks") or {}
    entry_address = str((entry_networks.get("default") or {}).get("ipv4_address", ""))
    if entry_address and value == entry_address:
        return "127.0.0.1"
    return value


def runtime_database_url() -> str:
    """The test database, as the runtime role (a deployed web process's credentials)."""
    runtime, test_database = settings.RUNTIME_DATABASE, connection.settings_dict
    return (f"postgres://{quote(runtime['USER'], safe='')}:"
            f"{quote(runtime['PASSWORD'], safe='')}@{test_database['HOST']}:"
            f"{test_database['PORT']}/{test_database['NAME']}")


def sign_in(port: int, client_address: str, forged: str) -> int:
    """One wrong-password sign-in from ``client_address`` (a loopback address of its
    own) carrying a forged X-Forwarded-For: the status."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                            source_address=(client_address, 0))
    try:
        connection.request("POST", SIGN_IN, body=json.dumps(
            {"username": "nobody-here", "password": "wrong-password-1"}), headers={
            "Content-Type": "application/json", "X-Forwarded-For": forged})
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_forged_forwarded_for_through_the_shipped_nginx_is_still_throttled(tmp_path):
    web_port = free_port()
    with throwaway_redis(tmp_path) as (_redis, redis_port):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true",
               "SECRET_KEY": secrets.token_urlsafe(50),
               "RECORD_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
               "HOST": "127.0.0.1", "PORT": str(web_port), "WEB_PROCESSES": "1",
               "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
               "DATABASE_URL": runtime_database_url(), "DATABASE_OWNER_URL": "",
               "FORWARDED_ALLOW_IPS": compose_trusted_proxies(),
               "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"), "LOG_LEVEL": "WARNING"}
        for name in ("THROTTLE_AUTH", "CACHE_REDIS_URL", "NUM_PROXIES"):
            env.pop(name, None)
        log_path = tmp_path / "web.log"
        web = start([str(ROOT / "scripts" / "serve_web.sh")], env, log_path, ROOT)
        try:
            wait_serving(web, web_port, "/api/v1/health", log_path, "the web tier")
            with running_entry(tmp_path, web_port) as entry_port:
                statuses = [sign_in(entry_port, "127.0.0.2", f"198.51.100.{attempt}")
                            for attempt in range(12)]
                other_client = sign_in(entry_port, "127.0.0.3", "198.51.100.200")
        finally:
            stop(web)
    # wrong credentials (400), then refused for the address (429) by the limit at the
    # latest, or sooner by the failed sign-ins' back-off; never a fresh count per forgery
    assert 429 in statuses, (statuses, tail(log_path))
    refused_from = statuses.index(429)
    assert refused_from <= AUTH_LIMIT_PER_MINUTE, statuses
    assert statuses[:refused_from] == [400] * refused_from, (statuses, tail(log_path))
    assert statuses[refused_from:] == [429] * (len(statuses) - refused_from), statuses
    # counted per client, not per proxy: another address still signs in (wrongly: 400)
    assert other_client == 400, other_client
