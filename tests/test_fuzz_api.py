"""``scripts/fuzz_api.sh`` in the suite (issue 21): schemathesis against the production
web server (uvicorn, as the runtime database role) over every REST operation, with
response-schema, status-code and content-type conformance, and every GraphQL field. A
few examples per operation and a fixed seed keep it deterministic and about a minute
long; `EXAMPLES=200 scripts/fuzz_api.sh` digs deeper by hand (docs/development.md).

The script stopped running when the runtime role lost the right to create databases
(issue 9): it created and migrated its database as that role."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings

from tests.ports import free_port

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = 10
SEED = 1


def test_the_fuzzer_finds_nothing(tmp_path):
    env = {
        **os.environ,
        # the service's own settings, not the suite's (which connect as the owner)
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "PG_PORT": str(settings.DATABASES["default"]["PORT"]),
        "REDIS_PORT": str(urlsplit(settings.REDIS_URL).port),
        "EXAMPLES": str(EXAMPLES), "SEED": str(SEED),
        "FUZZ_PORT": str(free_port()), "FUZZ_OUT": str(tmp_path),
    }
    result = subprocess.run([str(ROOT / "scripts" / "fuzz_api.sh")], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=900)
    server_log = tmp_path / "server.log"
    assert result.returncode == 0, "\n".join([
        result.stdout[-12000:], result.stderr[-4000:],
        server_log.read_text()[-4000:] if server_log.exists() else "(no server log)"])
