"""A bad configuration stops every process at its start with a message naming it (issue
40): the web tier (scripts/serve_web.sh), a Celery worker and beat, each a real process
started as compose starts it. Before, a bad THROTTLE_* value started and then every
request it limits answered 500; WEB_THREADS above the pool was accepted; config.E001 never
ran outside manage.py (infra/config_checks.py, config/start_checks.py)."""

from __future__ import annotations

import base64
import os
import secrets
import subprocess

import pytest

from tests.ports import free_port
from tests.workers import ROOT

pytestmark = pytest.mark.slow  # a real process per case

BIN = ROOT / ".venv" / "bin"
BAD_CONFIGURATIONS = {
    "throttle": ({"THROTTLE_AUTH": "ten a minute"}, "config.E002", "THROTTLE_AUTH"),
    "tier": ({"THROTTLE_APP_TIERS": "high=lots/min"}, "config.E002", "THROTTLE_APP_TIERS"),
    "threads": ({"WEB_THREADS": "12", "DB_POOL_MAX_SIZE": "8"}, "config.E003", "WEB_THREADS"),
    "proxies": ({"FORWARDED_ALLOW_IPS": "*", "DEBUG": "false"}, "config.E004",
                "FORWARDED_ALLOW_IPS"),
    "webhook_attempts": ({"WEBHOOK_MAX_ATTEMPTS": "41"}, "config.E005", "WEBHOOK_MAX_ATTEMPTS"),
    "webhook_batch": ({"WEBHOOK_BATCH_SIZE": "0"}, "config.E006", "WEBHOOK_BATCH_SIZE"),
}
PROCESSES = {
    "web": [str(ROOT / "scripts" / "serve_web.sh")],
    "worker": [str(BIN / "celery"), "-A", "config", "worker", "-l", "info",
               "-Q", "start-checks-never-consumed", "--concurrency=1"],
    "beat": [str(BIN / "celery"), "-A", "config", "beat", "-l", "info"],
}


def _environment(tmp_path, overrides: dict) -> dict:
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "true",
            "HOST": "127.0.0.1", "PORT": str(free_port()),
            "WEB_PROCESSES": "1", "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),
            # what DEBUG off needs besides (config/settings.py refuses to start without)
            "SECRET_KEY": secrets.token_urlsafe(50),
            "RECORD_SIGNING_KEYS": base64.b64encode(os.urandom(32)).decode(),
            **overrides}


# The case in every kind of process; the others in one each (the same checks).
RUNS = [("throttle", "web"), ("throttle", "worker"), ("throttle", "beat"),
        ("threads", "web"), ("proxies", "web"), ("tier", "worker"), ("threads", "beat"),
        ("webhook_attempts", "worker"), ("webhook_batch", "worker")]


@pytest.mark.parametrize(("case", "process"), RUNS)
def test_a_bad_configuration_stops_the_process_at_start(tmp_path, process, case):
    overrides, check_id, variable = BAD_CONFIGURATIONS[case]
    command = list(PROCESSES[process])
    if process == "beat":
        command += ["--schedule", str(tmp_path / "beat-schedule")]
    try:
        result = subprocess.run(command, cwd=ROOT, env=_environment(tmp_path, overrides),
                                capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{process} started (still running after 90 s) with {overrides}")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output[-2000:]
    assert check_id in output and variable in output, output[-2000:]


def test_manage_py_check_names_the_published_database_password(tmp_path):
    env = _environment(tmp_path, {"DEBUG": "false",
                                  "DATABASE_URL": "postgres://game:game@127.0.0.1:1/game"})
    result = subprocess.run([str(BIN / "python"), "manage.py", "check"], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=90)
    assert result.returncode == 0  # a warning: printed loudly, the process starts
    assert "config.W001" in result.stderr + result.stdout, result.stderr[-2000:]
